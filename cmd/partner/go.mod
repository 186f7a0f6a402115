module github.com/locsvc/partner-go/cmd/partner

// go 1.26.0 because modules the command builds with need it:
// modernc.org/sqlite v1.62.0 and modernc.org/libc v1.80.1 (the SQLite
// store), golang.org/x/sys v0.50.0, golang.org/x/term v0.48.0,
// golang.org/x/sync v0.24.0 and github.com/gofrs/flock v0.13.2 (the file
// store's lock) each say go 1.26.0 in their go.mod. The SDK itself needs
// only go 1.25.0.
go 1.26.0

// One block (its comment keeps go mod tidy from splitting it): the
// modules the command and its tests import, unmarked, and those they
// need, marked indirect.
require (
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/go-redis/redis_rate/v10 v10.0.1 // indirect
	github.com/gofrs/flock v0.13.2
	github.com/google/go-cmp v0.7.0
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/hashicorp/go-retryablehttp v0.7.8 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/pgx/v5 v5.12.0
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/locsvc/partner-go v0.0.0
	github.com/locsvc/partner-go/locales/formats v0.0.0
	github.com/locsvc/partner-go/redisstore v0.0.0
	github.com/magiconair/properties v1.8.10 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	github.com/ncruces/go-strftime v1.1.0 // indirect
	github.com/redis/go-redis/v9 v9.22.0
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/schollz/progressbar/v3 v3.19.1
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/spf13/cobra v1.10.2
	github.com/spf13/pflag v1.0.9 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	go.uber.org/atomic v1.11.0 // indirect
	go.yaml.in/yaml/v3 v3.0.5
	golang.org/x/oauth2 v0.36.0
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/term v0.48.0
	golang.org/x/text v0.41.0
	golang.org/x/time v0.15.0 // indirect
	modernc.org/libc v1.80.1 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
	modernc.org/sqlite v1.62.0
)

// Development against the SDK in this repository. Release tags of this
// module (cmd/partner/vX.Y.Z) drop these and require released versions.
replace (
	github.com/locsvc/partner-go => ../..
	github.com/locsvc/partner-go/locales/formats => ../../locales/formats
	github.com/locsvc/partner-go/redisstore => ../../redisstore
)
