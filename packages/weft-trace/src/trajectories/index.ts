/**
 * Trajectories from traces: rollouts captured from the wrapped model calls, groups of them gathered.
 * @module
 */
export { trajectory, setReward, addMetric, addLog, isTrajectory, type TrajectoryOp, type CapturedTrajectory } from './trajectory.js';
export { gatherTrajectoryGroups, type GatherOptions } from './gather.js';
