// The StatsCore module.
