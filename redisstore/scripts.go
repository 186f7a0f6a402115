package redisstore

import "github.com/redis/go-redis/v9"

// The Lua scripts the Store and Dedup run. Each is one atomic step on the
// server: Redis runs a script to its end before any other command. Every
// key a script names is in one hash slot (the grant's hash tag), so the
// scripts run on Redis Cluster too. All times are Redis's: TTLs are set
// with PX and read with PTTL, never compared with a client's clock.
//
// Reply of acquireScript: {state, value, pttl[, life]}, state being one of
// the acquire* constants, value the state key's value (false when absent),
// pttl its PTTL in milliseconds (-2 when absent) and, when KEYS[3] is
// given, life its value (false when absent).
const (
	acquireFresh = 1 // the stored token is not due: use it
	acquireHeld  = 2 // another holder has the lease
	acquireTaken = 3 // the caller now holds the lease
)

// acquireScript is the due check and the take, in one step.
//
//	KEYS[1] the state key: the installation token, or the access token's
//	        fingerprint, with PX = its time to expiry
//	KEYS[2] the lease key
//	KEYS[3] optional: the installation token's lifetime key
//	ARGV[1] due, ms: the token is fresh while its PTTL is above it
//	ARGV[2] the lease's TTL, ms
//	ARGV[3] the fence of the new holding
var acquireScript = redis.NewScript(`
local value = redis.call('GET', KEYS[1])
local pttl = redis.call('PTTL', KEYS[1])
local state = 2
if pttl > tonumber(ARGV[1]) then
  state = 1
elseif redis.call('SET', KEYS[2], ARGV[3], 'NX', 'PX', ARGV[2]) then
  state = 3
end
if KEYS[3] then
  return {state, value, pttl, redis.call('GET', KEYS[3])}
end
return {state, value, pttl}
`)

// commitScript saves the state and ends the lease, only while the fence is
// the lease's. It returns 1 when it did, 0 when the lease was lost.
//
//	KEYS[1] the state key
//	KEYS[2] the lease key
//	KEYS[3] optional: the installation token's lifetime key
//	ARGV[1] the fence
//	ARGV[2] the state's new value
//	ARGV[3] its time to expiry, ms; not positive: delete the state
//	ARGV[4] with KEYS[3]: the lifetime key's new value; "": delete it
var commitScript = redis.NewScript(`
if redis.call('GET', KEYS[2]) ~= ARGV[1] then
  return 0
end
if tonumber(ARGV[3]) > 0 then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
else
  redis.call('DEL', KEYS[1])
end
if KEYS[3] then
  if ARGV[4] ~= '' and tonumber(ARGV[3]) > 0 then
    redis.call('SET', KEYS[3], ARGV[4], 'PX', ARGV[3])
  else
    redis.call('DEL', KEYS[3])
  end
end
redis.call('DEL', KEYS[2])
return 1
`)

// guardScript checks, before the Store of record is written, that the
// fence is still the lease's, and makes the lease last at least ARGV[2] ms
// more, so that it cannot expire while that write is bounded to a shorter
// time. It returns 1 when the lease is held, 0 when it was lost.
//
//	KEYS[1] the lease key
//	ARGV[1] the fence
//	ARGV[2] the least time the lease must still last, ms
var guardScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 1
`)

// releaseScript deletes KEYS[1] only while its value is ARGV[1]: a lease
// abandoned by its holder, or a webhook claim released by its owner. It
// returns how many keys it deleted.
var releaseScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`)

// forgetScript deletes KEYS[1] (the access token's fingerprint) only while
// its value is ARGV[1], the fingerprint that was found stale: a newer one
// written meanwhile stays.
var forgetScript = releaseScript

// claimScript takes a webhook event id for a processing TTL, or reports
// who has it. It returns 1 (claimed), 2 (in progress) or 3 (handled),
// the values of webhook's ClaimState.
//
//	KEYS[1] the event's key
//	ARGV[1] the claim's value (claimPrefix + owner)
//	ARGV[2] the processing TTL, ms
//	ARGV[3] the done mark's value
var claimScript = redis.NewScript(`
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return 1
end
if redis.call('GET', KEYS[1]) == ARGV[3] then
  return 3
end
return 2
`)
