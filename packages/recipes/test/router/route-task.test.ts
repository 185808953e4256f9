import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '@orchestra/testing';
import { loadRouter, routeTask } from '../../src/router/index.js';

const RECIPES_DIR = fixturePath('manuscript/recipes');
const RECIPE_IDS = readdirSync(RECIPES_DIR)
  .filter((n) => n.endsWith('.yaml') && n !== 'router.yaml')
  .map((n) => n.replace(/\.yaml$/, ''));
const router = loadRouter(`${RECIPES_DIR}/router.yaml`, { recipes: RECIPE_IDS });

type Row = [task: string, recipe: string | null, args?: Record<string, string>];

/** Task descriptions as a chief or a person writes them, and where the shipped router.yaml sends them. */
const TABLE: Row[] = [
  // Drafting: a scene asked for at the start of the task.
  ['Write Scene 21', 'creative_draft_scene', { scene_number: '21' }],
  ['Draft scene 1.2', 'creative_draft_scene', { scene_number: '1.2' }],
  ['draft the next scene', 'creative_draft_scene'],
  ['Please write a scene where Ilse meets her father on Corrow', 'creative_draft_scene'],
  ['WRITE SCENE 4', 'creative_draft_scene', { scene_number: '4' }],
  ['Rewrite scene 2 so the tension rises to the end', 'creative_draft_scene', { scene_number: '2' }],
  ['Write the scene 3.1 draft from the outline', 'creative_draft_scene', { scene_number: '3.1' }],
  ['Draft scene 5 into scenes/scene-05.md', 'creative_draft_scene', { scene_number: '5', scene_path: 'scenes/scene-05.md' }],
  ['Draft scene 5 and check it for continuity', 'creative_draft_scene', { scene_number: '5' }],
  // Canon updates.
  ['Update the canon with what scene 2 establishes', 'structural_canon', { scene_number: '2' }],
  ["Add Crane's burned letter to canon.md", 'structural_canon'],
  ['Record the new facts from chapter 2 in the canon', 'structural_canon', { chapter: '2' }],
  // Outline restructuring.
  ['Restructure the outline of chapter 2', 'structural_outline', { chapter: '2' }],
  ['Reorder the scenes of chapter 3', 'structural_outline', { chapter: '3' }],
  ['Move the stove scene to chapter 2 in the outline', 'structural_outline', { chapter: '2' }],
  // Scene validation.
  ['Validate scene 2', 'analytical_scene_validate', { scene_number: '2' }],
  ['Is scene 1 ready for the editor?', 'analytical_scene_validate', { scene_number: '1' }],
  ['Check the word count of scenes/scene-02.md', 'analytical_scene_validate', { scene_path: 'scenes/scene-02.md' }],
  // Consistency.
  ['Check scene 2 for continuity errors', 'analytical_consistency', { scene_number: '2' }],
  ['Does scene 2 contradict the canon?', 'analytical_consistency', { scene_number: '2' }],
  ['Consistency check (scenes 21–22 vs canon)', 'analytical_consistency', { from_scene: '21', to_scene: '22' }],
  ['Look for inconsistencies in scenes/scene-02.md', 'analytical_consistency', { scene_path: 'scenes/scene-02.md' }],
  ["Fix the contradiction about Wren's eye colour", 'analytical_consistency'],
  ['Check the draft of scene 3 against the outline', 'analytical_consistency', { scene_number: '3' }],
  ['Add a continuity check of scene 2 against the canon', 'analytical_consistency', { scene_number: '2' }],
  ['Update the outline after the continuity check', 'analytical_consistency'],
  // Foreshadowing.
  ['Foreshadowing audit', 'analytical_foreshadow'],
  ['Is the letter foreshadowed before chapter 3?', 'analytical_foreshadow', { chapter: '3' }],
  ['Audit the setups and payoffs of the nameless boat', 'analytical_foreshadow'],
  // Prose and pacing.
  ['Review the pacing of scene 2', 'analytical_prose', { scene_number: '2' }],
  ['The Weighhouse scene drags: tighten the prose', 'analytical_prose'],
  ['Prose review of scenes/scene-01.md', 'analytical_prose', { scene_path: 'scenes/scene-01.md' }],
  // Near misses and tasks no rule covers: back to the chief.
  ['Write a summary of chapter 1', null],
  ['Draft an email to my editor', null],
  ['Rewrite the ending', null],
  ['The scenery descriptions feel thin', null],
  ['Canonical names for the districts', null],
  ['Check the canon', null],
  ['Does the outline still work if Wren learns the truth earlier?', null],
  ['The pacer on the Rope Walk needs a name', null],
  ["What's the capital of France?", null],
  ['Make it better', null],
  ['', null],
  ['   ', null],
];

describe('routeTask against fixtures/manuscript/recipes/router.yaml', () => {
  it('has a table of at least 30 tasks, and every recipe of the fixture is reachable', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
    expect(new Set(TABLE.map((row) => row[1]).filter((r) => r !== null))).toEqual(new Set(RECIPE_IDS));
  });

  it.each(TABLE)('%j → %s', (task, recipe, args = {}) => {
    const result = routeTask(task, router);
    expect({ recipe_id: result.recipe_id, initial_args: result.initial_args, routable: result.routable }).toEqual({ recipe_id: recipe, initial_args: recipe === null ? {} : args, routable: recipe !== null });
    if (recipe === null) expect(result.rule).toBeUndefined();
    else expect(router.rules[result.rule as number]?.recipe).toBe(recipe);
  });

  it('names the rule that matched by its index in the file', () => {
    expect(routeTask('Write Scene 21', router)).toEqual({ recipe_id: 'creative_draft_scene', initial_args: { scene_number: '21' }, routable: true, rule: 0 });
    expect(routeTask('Reorder the scenes', router).rule).toBe(2);
    expect(routeTask('Move scene 3 in the outline', router).rule).toBe(3);
  });
});
