/**
 * Remote environments: a client and a server for the AgentGym env-server
 * protocol, and kits for environments named `agentgym:<env>@<url>`.
 *
 * @module
 */
export {
  goalFromObservation,
  RemoteEnvironment,
  RemoteEnvironmentError,
  type RemoteEnvironmentOptions,
  type RemoteFailure,
} from "./client.ts";
export { serveEnvironment, type ServeEnvironmentOptions } from "./server.ts";
export { localKit, parseRemoteName, REMOTE_PREFIX, remoteKit, type RemoteName } from "./kit.ts";
export { MirrorExpert } from "./mirror_expert.ts";
