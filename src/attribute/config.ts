/**
 * The `attribution:` section of tracejury.yml: failure attribution (a root cause for every failed
 * run) and the roles of a team's agents.
 *
 * ```yaml
 * attribution:
 *   roles: { Orchestrator: router, ComputerTerminal: executor, Researcher: worker }
 *   readTools: [get_*, list_*, search_*]   # calls that change nothing (expected actions compare the others)
 *   tribunal: true                         # judges choose among candidate steps in the gray zone
 * ```
 */
import { z } from 'zod';

const AGENT_ROLES = ['router', 'executor', 'worker'] as const;
export const AgentRoleSchema = z.enum(AGENT_ROLES);
/**
 * What an agent does in a team: a `router` only forwards (chooses who speaks next, relays the
 * task), an `executor` only runs what another agent wrote (a code terminal), a `worker` decides.
 * Blame never lands on a router or an executor: it goes to the worker they forwarded to or ran for.
 */
export type AgentRole = z.infer<typeof AgentRoleSchema>;

/**
 * Routers and executors of the frameworks whose recordings were read: Magentic-One's Orchestrator
 * and ComputerTerminal; AutoGen and CaptainAgent's group chat manager and code executor
 * (`Computer_terminal`, `executor`, `user_proxy`, which runs the code the assistant writes);
 * LangGraph's `supervisor`. Names match whatever their case and separators (roleOf in roles.ts).
 */
export const DEFAULT_ROLES: Readonly<Record<string, AgentRole>> = {
  Orchestrator: 'router',
  chat_manager: 'router',
  group_chat_manager: 'router',
  supervisor: 'router',
  ComputerTerminal: 'executor',
  code_executor: 'executor',
  executor: 'executor',
  user_proxy: 'executor',
};

/**
 * Tools that read rather than act, by name pattern (`*` any characters): a departure from the
 * expected actions is looked for among the other calls, which change the world.
 */
export const DEFAULT_READ_TOOLS = [
  'get_*',
  'list_*',
  'search_*',
  'find_*',
  'lookup_*',
  'look_up_*',
  'read_*',
  'fetch_*',
  'query_*',
  'retrieve_*',
  'check_*',
  'view_*',
  'show_*',
  'describe_*',
  'count_*',
  'calculate',
  'think',
] as const;

export const AttributionSectionSchema = z
  .object({
    enabled: z
      .boolean()
      .describe('Name a root cause (a step, its agent and the rule) for every failed run (default true)'),
    roles: z
      .record(z.string().min(1), AgentRoleSchema)
      .describe(
        'The role of an agent by its name: router (only forwards), executor (only runs what another wrote) or worker; ' +
          'blame never lands on routers and executors. Added to the defaults (Orchestrator, chat_manager, supervisor: ' +
          'router; ComputerTerminal, code_executor, executor, user_proxy: executor); `worker` unmarks a default',
      ),
    readTools: z
      .array(z.string().min(1))
      .describe(
        'Name patterns (* for any characters) of tools that only read; the expected-actions rule compares the other ' +
          `calls. Replaces the default (${DEFAULT_READ_TOOLS.join(', ')})`,
      ),
    tribunal: z
      .boolean()
      .describe(
        'When rules disagree or only the prior names a step, the configured judges choose among the candidate ' +
          'steps (through the cassette); default true. Offline, the rules’ answer stands',
      ),
  })
  .partial()
  .strict()
  .describe('Failure attribution: the step, agent and rule behind each failed run');
export type AttributionSection = z.infer<typeof AttributionSectionSchema>;

/** The section with its defaults filled in: what the attribution stage and the rules read. */
export interface AttributionSettings {
  enabled: boolean;
  /** Roles by agent name: the defaults, then the config's. */
  roles: Record<string, AgentRole>;
  readTools: string[];
  tribunal: boolean;
}

export function attributionSettings(section: AttributionSection = {}): AttributionSettings {
  return {
    enabled: section.enabled ?? true,
    roles: { ...DEFAULT_ROLES, ...section.roles },
    readTools: section.readTools ?? [...DEFAULT_READ_TOOLS],
    tribunal: section.tribunal ?? true,
  };
}
