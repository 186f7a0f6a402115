package partner

// PoolFailedLen is how many evicted failed grants p remembers, for the
// test that the set stays bounded.
func PoolFailedLen(p *Pool) int { return p.failedLen() }

// GrantsOf reads the grants of a code exchange's answer, for its fuzz
// target.
var GrantsOf = grantsOf
