/**
 * State sets, as kube-state-metrics exposes them: one series per known state, 1 for the current
 * state and 0 for the others, so that `== 1` selects the current state and a state change never
 * leaves a stale series behind.
 */
import type { FamilyDef, Sample } from "./sample.js";

/**
 * Builds the samples of one state set of `family`. Each sample carries `baseLabels` (in their
 * order) then `stateLabel`. `knownStates` must be lowercase; `current` is compared lowercased.
 * A current state outside `knownStates` is added (lowercased) with value 1, after the known
 * ones. An empty current state adds nothing: an empty label value would be the same series as
 * no label at all.
 */
export function stateSet(
  family: FamilyDef,
  baseLabels: Readonly<Record<string, string>>,
  stateLabel: string,
  knownStates: readonly string[],
  current: string,
): Sample[] {
  const cur = current.trim().toLowerCase();
  const sample = (state: string, value: number): Sample => ({
    family: family.name,
    labels: { ...baseLabels, [stateLabel]: state },
    value,
  });
  const samples = knownStates.map((state) => sample(state, state === cur ? 1 : 0));
  if (cur !== "" && !knownStates.includes(cur)) samples.push(sample(cur, 1));
  return samples;
}
