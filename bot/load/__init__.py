"""`python -m bot load`: an open-loop load generator over several bot processes.

`driver` starts a scratch redis-server and P worker processes, offers moves at a fixed rate
to tables spread over them, and prints its figures as one JSON line; `worker` is one bot
process: the real service, store and images behind a small local HTTP endpoint, firing its
share of deadlines as a platform adapter does. `failovers` (`--failovers N`) plays on a local
Redis Cluster (`cluster`) instead, killing and restoring its masters N times in a row.
"""
