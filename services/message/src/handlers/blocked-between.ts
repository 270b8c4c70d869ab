import type { Collection } from '@veil/ports';
import type { BlocksDoc } from '../projections/timeline.projection.ts';

/** Whether any of these people blocked another of them (a one-to-one chat's two, a caller and callee). */
export const blockedBetween = async (
  blocks: Pick<Collection<BlocksDoc>, 'getMany'>,
  people: readonly string[],
): Promise<boolean> =>
  (await blocks.getMany(people)).some((doc) =>
    people.some((other) => other !== doc._id && doc.blocked.includes(other)),
  );
