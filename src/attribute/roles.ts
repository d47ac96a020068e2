/**
 * An agent's role in its team (config.ts), by name. Frameworks spell one agent several ways
 * (`ComputerTerminal` in Magentic-One, `Computer_terminal` in CaptainAgent), so names are compared
 * without case, spaces, underscores or hyphens; a config entry wins over a default of the same name.
 */
import type { AgentRole } from './config.js';

export type RoleOf = (agent: string | undefined) => AgentRole;

const normalise = (name: string): string => name.toLowerCase().replace(/[\s_\-.]+/g, '');

export function createRoleLookup(roles: Readonly<Record<string, AgentRole>>): RoleOf {
  // The run's settings are one object, read for every trace: a lookup built once per object.
  let lookup = roleLookups.get(roles);
  if (!lookup) roleLookups.set(roles, (lookup = roleLookup(roles)));
  return lookup;
}

const roleLookups = new WeakMap<Readonly<Record<string, AgentRole>>, RoleOf>();

function roleLookup(roles: Readonly<Record<string, AgentRole>>): RoleOf {
  const byName = new Map<string, AgentRole>();
  // Later entries (the config's, spread after the defaults) override earlier ones.
  for (const [name, role] of Object.entries(roles)) byName.set(normalise(name), role);
  return (agent) => (agent === undefined ? 'worker' : (byName.get(normalise(agent)) ?? 'worker'));
}
