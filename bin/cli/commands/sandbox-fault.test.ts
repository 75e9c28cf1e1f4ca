import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { AddFaultBody } from '../../../simulator/control/routes.ts';
import { FAULT_KINDS, registerFaultCommand } from './sandbox-fault.ts';

describe('ncs sandbox fault <kind>', () => {
  it('offers exactly the kinds the control plane accepts, in its order', () => {
    expect(FAULT_KINDS).toEqual(AddFaultBody.shape.kind.options);
    const sandbox = new Command('sandbox');
    registerFaultCommand(sandbox, () => async () => {});
    const fault = sandbox.commands.find((c) => c.name() === 'fault');
    expect(fault?.registeredArguments[0]?.argChoices).toEqual(AddFaultBody.shape.kind.options);
  });
});
