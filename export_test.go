package partner

// PoolFailedLen is how many evicted failed grants p remembers, for the
// test that the set stays bounded.
func PoolFailedLen(p *Pool) int { return p.failedLen() }
