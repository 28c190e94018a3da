/**
 * The deploy vocabulary: servers (up or down, with free slots), services of
 * kinds (built, deployed on a server, tested), the goal facts, and the
 * operations. It declares no landmarks: a whole episode is one segment.
 *
 * @module
 */
import type { Vocabulary } from "../../mod.ts";

/**
 * The deploy vocabulary. Ids are display names (`server 3`, `web 2`); a
 * service's kind is the name part of its id.
 *
 * Goal facts (from the goal sentence): `wanted(s)` for every service to
 * deploy, and for `deploy_and_test` tasks also `wanted_tested(s)`.
 *
 * @example Usage
 * ```ts
 * import { deployVocabulary } from "./vocabulary.ts";
 * console.log(deployVocabulary.actions.deploy.template); // deploy {service} to {server}
 * ```
 */
export const deployVocabulary: Vocabulary = {
  name: "deploy",
  types: {
    Server: { kind: "object", doc: "A machine with slots for services: `server 3`." },
    Service: { kind: "object", doc: "A service to build and deploy: `web 2`, `db 1`." },
    ServiceKind: { kind: "value", doc: "A service kind as printed: `web`, `db`, `cache`." },
  },
  predicates: {
    up: { params: ["Server"], doc: "The server is running and accepts deployments." },
    down: { params: ["Server"], doc: "The server is off: it must be booted first." },
    free_slots: {
      params: ["Server", "Num"],
      doc: "Services the running server can still take (known once it is up).",
    },
    service_kind: { params: ["Service", "ServiceKind"], doc: "The service's kind." },
    built: { params: ["Service"], doc: "The service has been built and can be deployed." },
    deployed: { params: ["Service", "Server"], doc: "The service runs on the server." },
    tested: { params: ["Service"], doc: "The deployed service passed its checks." },
    wanted: { params: ["Service"], doc: "The goal asks for the service to be deployed." },
    wanted_tested: { params: ["Service"], doc: "The goal asks for the service to be tested." },
  },
  functions: {
    free: {
      params: ["Server"],
      returns: "Num",
      predicate: "free_slots",
      default: 0,
      doc: "Free slots of the server (0 when down or not known).",
    },
  },
  actions: {
    boot: {
      template: "boot {server}",
      params: [{ name: "server", type: "Server" }],
      doc: "Start a server that is down; the reply tells its free slots.",
    },
    build: {
      template: "build {service}",
      params: [{ name: "service", type: "Service" }],
      doc: "Build a service that is not built yet.",
    },
    deploy: {
      template: "deploy {service} to {server}",
      params: [{ name: "service", type: "Service" }, { name: "server", type: "Server" }],
      doc: "Deploy a built service to a server that is up and has a free slot.",
    },
    test: {
      template: "test {service}",
      params: [{ name: "service", type: "Service" }],
      doc: "Run the checks of a deployed service.",
    },
    status: { template: "status", params: [], doc: "List the servers and services." },
  },
};
