import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrchestraError, isOrchestraError } from '@orchestra/core';
import { afterEach, describe, expect, it } from 'vitest';
import { IllegalTransitionError, LaunchError, RunLauncher, SessionMachine } from '../src/index.js';

let launcher: RunLauncher | undefined;
afterEach(async () => {
  await launcher?.close();
  launcher = undefined;
});

/** What `work` throws. */
function thrownBy(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('the errors of @orchestra/chat are OrchestraErrors', () => {
  it('IllegalTransitionError: code ORCH_ILLEGAL_TRANSITION, with its name, state, event and message', () => {
    const error = thrownBy(() => new SessionMachine().fire('approve'));
    expect(isOrchestraError(error, 'ORCH_ILLEGAL_TRANSITION')).toBe(true);
    expect(error).toBeInstanceOf(IllegalTransitionError);
    expect(error).toBeInstanceOf(OrchestraError);
    expect(error).toMatchObject({ name: 'IllegalTransitionError', state: 'IDLE', event: 'approve', message: 'a session in IDLE cannot take approve (it takes: message)' });
  });

  it('LaunchError: a refused launch_run keeps its code and name', () => {
    launcher = new RunLauncher({ projectDir: mkdtempSync(join(tmpdir(), 'orchestra-chat-errors-')), simulate: true });
    const error = thrownBy(() => launcher?.prepare({ task: 't', pipeline: 'nope.dot' }));
    expect(isOrchestraError(error, 'ORCH_BAD_REQUEST')).toBe(true);
    expect(error).toBeInstanceOf(LaunchError);
    expect(error).toMatchObject({ name: 'LaunchError', message: 'launch_run: pipeline nope.dot is not a file of the project' });
  });
});
