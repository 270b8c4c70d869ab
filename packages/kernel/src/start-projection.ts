import { startInlineProjection } from './inline-projection.ts';
import { startFollowingProjection, type ProjectionDeps, type RunningProjection } from './projection.ts';

/**
 * Starts a projection: inside the log's commits when `inline` is given (embedded mode),
 * otherwise following the log, with its changes stored by writes of its own.
 */
export const startProjection = (deps: ProjectionDeps): Promise<RunningProjection> =>
  deps.inline ? startInlineProjection({ ...deps, inline: deps.inline }) : startFollowingProjection(deps);
