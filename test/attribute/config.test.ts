/** The `attribution:` section of tracejury.yml: defaults, roles added to the defaults, mistakes named. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_TOOLS, DEFAULT_ROLES } from '../../src/attribute/config.js';
import { parseConfig } from '../../src/config/config.js';

describe('attribution: in tracejury.yml', () => {
  it('defaults: on, the frameworks’ routers and executors, the read-tool patterns, judges in the gray zone', () => {
    expect(parseConfig('').attribution).toEqual({
      enabled: true,
      roles: DEFAULT_ROLES,
      readTools: [...DEFAULT_READ_TOOLS],
      tribunal: true,
    });
  });

  it('roles are added to the defaults, and a default can be unmarked', () => {
    const config = parseConfig('attribution:\n  roles: { Supervisor_Bot: router, Orchestrator: worker }\n');
    expect(config.attribution.roles).toMatchObject({
      Supervisor_Bot: 'router',
      Orchestrator: 'worker',
      ComputerTerminal: 'executor',
    });
  });

  it('a misspelt key or role is an error naming the file, line and key', () => {
    expect(() => parseConfig('attribution:\n  rols: { A: router }\n')).toThrow(
      'tracejury.yml:2: unknown key "attribution.rols" — did you mean "roles"?',
    );
    expect(() => parseConfig('attribution:\n  roles:\n    Planner: boss\n')).toThrow(
      /^tracejury\.yml:3: attribution\.roles\.Planner: .*"router".*"executor".*"worker"/,
    );
    expect(() => parseConfig('attribution:\n  tribunal: sometimes\n')).toThrow(
      /^tracejury\.yml:2: attribution\.tribunal: .*boolean/,
    );
  });
});
