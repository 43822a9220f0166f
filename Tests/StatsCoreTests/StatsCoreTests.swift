// Tests of StatsCore.
