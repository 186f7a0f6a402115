module github.com/locsvc/partner-go/redisstore

go 1.25.0

require (
	github.com/locsvc/partner-go v0.0.0
	github.com/redis/go-redis/v9 v9.22.0
	golang.org/x/oauth2 v0.36.0
)

require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/locsvc/partner-go => ../
