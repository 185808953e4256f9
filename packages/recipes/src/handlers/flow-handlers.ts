import type { Handler } from '@orchestra/core';
import { slotJson, slotKey } from '../slots.js';

/** A skipped phase-B step (`recipe.skip`): its output slot is written empty (`data: null`), and the recipe goes on. */
export const skipStepHandler: Handler = {
  execute({ node }) {
    const output = node.attributes['recipe.output'] ?? '';
    return {
      status: 'success',
      notes: `skipped ${node.attributes['recipe.agent'] ?? 'the step'}: ${output} left empty`,
      contextUpdates: { [slotKey(output)]: slotJson({ data: null, receipt_id: null, summary: '(skipped)', agent_id: node.attributes['recipe.agent'] ?? null }) },
    };
  },
};

/** The person chose to stop after a failed step (`recipe.stop`): the run fails, saying so. */
export const stopHandler: Handler = {
  execute({ run }) {
    const failed = [...run.completedNodes].reverse().find((id) => id.endsWith('_failed'));
    return { status: 'fail', failureReason: `stopped by the person${failed ? ` after ${failed.replace(/_failed$/, '')} failed` : ''}`, retryable: false, contextUpdates: { 'recipe.state': 'failed' } };
  },
};
