/**
 * TextCraft: a faithful simulator of the TextCraft benchmark (Minecraft
 * crafting in text), its vocabulary, a rule-based grounder, an expert that
 * produces demonstrations, and the environment kit.
 *
 * @module
 */
export { BUILTIN_RECIPES, TextCraft, type TextCraftOptions } from "./simulator.ts";
export { textcraftVocabulary } from "./vocabulary.ts";
export {
  isFamilyMember,
  type ListedRecipe,
  parseRecipeLine,
  TextCraftGrounder,
} from "./grounder.ts";
export { planTextCraft, TextCraftExpert } from "./expert.ts";
export { textcraftKit } from "./kit.ts";
export { RecipeKnowledge } from "./knowledge.ts";
export {
  type CraftingRecipe,
  type Ingredient,
  type ListedInput,
  loadRecipeBook,
  RecipeBook,
  recipeText,
} from "./recipe_book.ts";
export { parseRecipeJson, type RawIngredient, type RawRecipe } from "./recipe_parse.ts";
export {
  goalSentence,
  resolveTask,
  type TextCraftSpec,
  TextCraftSpecSchema,
  type TextCraftTask,
  textcraftTasks,
  type TextCraftTasksOptions,
} from "./tasks.ts";
export { type ActionOutcome, applyAction, inventoryText } from "./actions.ts";
export { craftingCommands, firstObservation, MAX_DISTRACTORS, recipeTree } from "./commands.ts";
export { idToName, nameToId } from "./names.ts";
export { mulberry32, type Random } from "./prng.ts";
export {
  formatTextCraftTranscript,
  importTextCraftTranscripts,
  parseTextCraftTranscript,
} from "./transcript.ts";
