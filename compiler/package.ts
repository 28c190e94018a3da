/**
 * Generating a Deno/JSR package from a skill library: other code imports a
 * skill as a typed constant and runs it with the skillc runtime. The package
 * is self-contained (no imports outside it):
 *
 * ```
 * deno.json   name, version, license MIT, exports ./mod.ts
 * types.ts    structural types of the skill JSON format (SkillModule, SkillArgs, ...)
 * mod.ts      one typed constant per skill, a `skills` record and the vocabulary name
 * README.md   the skills with their parameters and summaries
 * ```
 *
 * Skills are emitted as JSON literals: the package carries data, not code.
 *
 * @module
 */
import { type Skill, SkillSchema } from "../dsl/graph/schema.ts";
import { writeTextFileAtomic } from "../io/json_file.ts";
import { PACKAGE_TYPES_TS } from "./_package_types.ts";

/** Options of {@linkcode generatePackage}. */
export interface PackageOptions {
  /** The JSR package name, `@scope/name` (lowercase letters, digits, hyphens). */
  name: string;
  /** The package version (semver). */
  version: string;
  /** The vocabulary (environment) name every skill must be written against. */
  vocabulary: string;
  /** One or two sentences for the module doc and README. */
  description?: string;
  /** The specifier of the skillc runtime in the generated examples. @default "jsr:@skillc/skillc" */
  runtime?: string;
}

const PACKAGE_NAME = /^@[a-z0-9][a-z0-9-]{1,19}\/[a-z0-9][a-z0-9-]{1,57}$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

// Words that cannot name a `const` in a module (strict mode), plus the
// package's own exports.
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends " +
    "false finally for function if import in instanceof new null return super switch this throw " +
    "true try typeof var void while with yield let static implements interface package private " +
    "protected public await arguments eval undefined NaN Infinity " +
    "skills vocabulary SkillModule"
  ).split(" "),
);

/**
 * The TypeScript identifier of each skill's constant: the skill name, with
 * `_` appended when it is a reserved word or taken.
 *
 * @example Usage
 * ```ts
 * import { skillIdentifiers } from "./package.ts";
 * console.log(skillIdentifiers(["craft", "delete"])); // Map { "craft" => "craft", "delete" => "delete_" }
 * ```
 */
export function skillIdentifiers(names: readonly string[]): Map<string, string> {
  const taken = new Set(names.filter((n) => !RESERVED.has(n)));
  const ids = new Map<string, string>();
  for (const name of names) {
    let id = name.replace(/[^A-Za-z0-9_$]/g, "_").replace(/^(?=\d)/, "_");
    if (RESERVED.has(id) || (id !== name && taken.has(id))) {
      id = `${id}_`;
      while (taken.has(id) || RESERVED.has(id)) id = `${id}_`;
    }
    taken.add(id);
    ids.set(name, id);
  }
  return ids;
}

/**
 * The files of a skill package, by file name. Pure: see
 * {@linkcode generatePackage} to write them.
 *
 * @throws {TypeError} When the name or version is malformed, a skill does
 * not match the skill schema or another vocabulary, or two skills share a name.
 */
export function packageFiles(
  skills: readonly Skill[],
  options: PackageOptions,
): Map<string, string> {
  if (!PACKAGE_NAME.test(options.name)) {
    throw new TypeError(
      `Invalid package name "${options.name}": expected "@scope/name" in lowercase letters, digits and hyphens`,
    );
  }
  if (!SEMVER.test(options.version)) {
    throw new TypeError(
      `Invalid package version "${options.version}": expected semver such as "1.2.3"`,
    );
  }
  const parsed = skills.map((s, i) => {
    const r = SkillSchema.safeParse(s);
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new TypeError(
        `Invalid skill ${i + 1} ("${String(s?.name)}") at "${
          issue.path.join(".")
        }": ${issue.message}`,
      );
    }
    if (r.data.vocabulary !== options.vocabulary) {
      throw new TypeError(
        `Skill "${r.data.name}" is for vocabulary "${r.data.vocabulary}" but the package is for "${options.vocabulary}"`,
      );
    }
    return r.data;
  });
  const names = parsed.map((s) => s.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw new TypeError(`Duplicate skill name "${dup}"`);
  const deno = {
    name: options.name,
    version: options.version,
    license: "MIT",
    exports: { ".": "./mod.ts" },
  };
  return new Map([
    ["deno.json", `${JSON.stringify(deno, null, 2)}\n`],
    ["types.ts", PACKAGE_TYPES_TS],
    ["mod.ts", renderMod(parsed, options)],
    ["README.md", renderReadme(parsed, options)],
  ]);
}

/**
 * Writes a self-contained Deno/JSR package of `skills` into `dir` (created
 * if missing; its generated files are replaced, each atomically). The
 * package passes `deno check mod.ts` and `deno publish --dry-run`.
 *
 * @example Usage
 * ```ts ignore
 * await generatePackage("out/package", skills, {
 *   name: "@me/craft-skills",
 *   version: "0.1.0",
 *   vocabulary: "textcraft",
 * });
 * ```
 */
export async function generatePackage(
  dir: string,
  skills: Skill[],
  options: PackageOptions,
): Promise<void> {
  const files = packageFiles(skills, options);
  await Deno.mkdir(dir, { recursive: true });
  for (const [name, text] of files) await writeTextFileAtomic(`${dir}/${name}`, text);
}

function renderMod(skills: readonly Skill[], options: PackageOptions): string {
  const ids = skillIdentifiers(skills.map((s) => s.name));
  const runtime = options.runtime ?? "jsr:@skillc/skillc";
  const names = new Set(skills.map((s) => s.name));
  const first = skills[0];
  const moduleDoc = [
    options.description ?? `Skills for the "${options.vocabulary}" environment.`,
    "",
    `Generated by skillc: ${skills.length} skill${skills.length === 1 ? "" : "s"} of vocabulary ` +
    `"${options.vocabulary}", each a typed constant holding the skill's JSON data ` +
    "(format `skillc/skill@1`). Run them with the skillc runtime.",
    ...(first === undefined ? [] : [
      "",
      "@example Run a skill with the skillc runtime",
      "```ts ignore",
      `import { collectRun, compileSkills, FactStore, runSkill } from "${runtime}";`,
      `import { skills } from "${options.name}";`,
      "",
      `// kit: the skillc environment kit of vocabulary "${options.vocabulary}".`,
      "const library = compileSkills(",
      "  Object.values(skills).map((data) => ({ data, source: data.name })),",
      "  kit.vocabulary,",
      ");",
      "const env = kit.create();",
      "const grounder = kit.grounder();",
      "const task = await env.reset({ seed: 1 });",
      "const facts = new FactStore();",
      "facts.apply(grounder.initial(task.observation, task.goal).delta);",
      `const program = library.get(${JSON.stringify(first.name)})!;`,
      `const args = ${exampleArgs(first)};`,
      "const run = runSkill(program, args, { env, grounder, facts, library });",
      "const { result } = await collectRun(run);",
      "console.log(result.outcome);",
      "```",
    ]),
    "",
    "@module",
  ];
  const out = [
    "// Generated by skillc from a skill library. Do not edit: regenerate it instead.",
    jsdoc(moduleDoc, ""),
    'import type { SkillModule } from "./types.ts";',
    "export type {",
    "  ArgValue,",
    "  CheckNode,",
    "  DataNode,",
    "  EdgeLabel,",
    "  LoopNode,",
    "  ParamTypes,",
    "  PrimitiveNode,",
    "  SkillArgs,",
    "  SkillData,",
    "  SkillDoc,",
    "  SkillEdge,",
    "  SkillGraft,",
    "  SkillModule,",
    "  SkillNode,",
    "  SkillParam,",
    "  SkillParams,",
    "  TerminalNode,",
    '} from "./types.ts";',
    "",
    "/** The vocabulary (environment) the skills are written against. */",
    `export const vocabulary = ${JSON.stringify(options.vocabulary)} as const;`,
  ];
  for (const skill of skills) {
    const calls = [
      ...new Set(
        skill.nodes.flatMap((n) => n.kind === "primitive" && names.has(n.action) ? [n.action] : []),
      ),
    ];
    out.push(
      "",
      jsdoc(skillDoc(skill, ids.get(skill.name)!, calls, runtime, options.name), ""),
      `export const ${ids.get(skill.name)}: ${moduleType(skill)} = ${
        JSON.stringify(skill, null, 2)
      };`,
    );
  }
  const record = skills.length === 0
    ? "Readonly<Record<string, never>>"
    : `{\n${skills.map((s) => `  readonly ${s.name}: ${moduleType(s)};`).join("\n")}\n}`;
  out.push(
    "",
    "/** Every skill of the package by name. */",
    `export const skills: ${record} = {${
      skills.map((s) => ids.get(s.name) === s.name ? s.name : `${s.name}: ${ids.get(s.name)}`).join(
        ", ",
      )
    }};`,
    "",
  );
  return out.join("\n");
}

function skillDoc(
  skill: Skill,
  id: string,
  calls: string[],
  runtime: string,
  pkg: string,
): string[] {
  const lines = [skill.doc.summary || `The skill "${skill.name}".`];
  if (skill.doc.pre !== undefined) lines.push("", `Precondition: \`${skill.doc.pre}\``);
  if (skill.doc.post !== undefined) lines.push("", `Postcondition: \`${skill.doc.post}\``);
  for (const e of skill.doc.excluded ?? []) lines.push("", `Excluded context: \`${e}\``);
  if (calls.length > 0) {
    lines.push("", `Calls the skills ${calls.map((c) => `\`${c}\``).join(", ")}.`);
  }
  const permanent = (skill.grafts ?? []).filter((g) => g.status === "permanent").length;
  const tentative = (skill.grafts ?? []).length - permanent;
  if (permanent + tentative > 0) {
    lines.push("", `Grafted recoveries: ${permanent} permanent, ${tentative} tentative.`);
  }
  if (skill.params.length > 0) lines.push("");
  for (const p of skill.params) {
    lines.push(`@param {${p.type}} ${p.name}${p.doc ? ` ${p.doc}` : ""}`);
  }
  lines.push("", "@example Run it with the skillc runtime", "```ts ignore");
  if (calls.length === 0) {
    lines.push(
      `import { collectRun, compileSkill, runSkill } from "${runtime}";`,
      `import { ${id} } from "${pkg}";`,
      "",
      `const program = compileSkill(${id}, kit.vocabulary); // kit: the "${skill.vocabulary}" kit`,
      "if (!program.ok) throw new Error(JSON.stringify(program.error));",
      `const run = runSkill(program.value, ${exampleArgs(skill)}, { env, grounder, facts });`,
    );
  } else {
    lines.push(
      `import { collectRun, compileSkills, runSkill } from "${runtime}";`,
      `import { skills } from "${pkg}";`,
      "",
      "const library = compileSkills(",
      "  Object.values(skills).map((data) => ({ data, source: data.name })),",
      `  kit.vocabulary, // kit: the "${skill.vocabulary}" kit`,
      ");",
      `const program = library.get(${JSON.stringify(skill.name)})!;`,
      `const run = runSkill(program, ${exampleArgs(skill)}, { env, grounder, facts, library });`,
    );
  }
  lines.push("const { result } = await collectRun(run);", "```");
  return lines;
}

/** `SkillModule<{ target: "Item" }>`. */
function moduleType(skill: Skill): string {
  if (skill.params.length === 0) return "SkillModule<Record<never, never>>";
  const fields = skill.params.map((p) => `${p.name}: ${JSON.stringify(p.type)}`);
  return `SkillModule<{ ${fields.join("; ")} }>`;
}

/** Placeholder arguments by type, for examples. */
function exampleArgs(skill: Skill): string {
  const value = (type: string): string => {
    if (type === "Num") return "1";
    if (type === "Bool") return "true";
    const list = /^List<(.+)>$/.exec(type);
    if (list) return `[${value(list[1])}]`;
    return JSON.stringify(`<${type}>`);
  };
  if (skill.params.length === 0) return "{}";
  return `{ ${skill.params.map((p) => `${p.name}: ${value(p.type)}`).join(", ")} }`;
}

/** A JSDoc block; text cannot close the comment early. */
function jsdoc(lines: readonly string[], indent: string): string {
  const body = lines.flatMap((l) => l.split("\n")).map((l) => {
    const safe = l.replaceAll("*/", "*\\/");
    return safe === "" ? `${indent} *` : `${indent} * ${safe}`;
  });
  return [`${indent}/**`, ...body, `${indent} */`].join("\n");
}

function renderReadme(skills: readonly Skill[], options: PackageOptions): string {
  const cell = (s: string): string => s.replaceAll("|", "\\|").replaceAll("\n", " ");
  const rows = skills.map((s) =>
    `| \`${s.name}\` | ${
      cell(s.params.map((p) => `${p.name}: ${p.type}`).join(", ")) || "(none)"
    } | ${cell(s.doc.summary)} |`
  );
  return [
    `# ${options.name}`,
    "",
    options.description ?? `Skills for the "${options.vocabulary}" environment.`,
    "",
    `Generated by skillc from a skill library (vocabulary "${options.vocabulary}"). Each skill is`,
    "exported from `mod.ts` as a typed constant holding the skill's JSON data; run it with the",
    "skillc runtime (see the examples in the module documentation).",
    "",
    "| skill | parameters | summary |",
    "| ----- | ---------- | ------- |",
    ...rows,
    "",
  ].join("\n");
}
