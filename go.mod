module github.com/locsvc/partner-go

go 1.25.0

require (
	github.com/google/go-cmp v0.7.0
	github.com/hashicorp/go-retryablehttp v0.7.8
	github.com/jarcoal/httpmock v1.4.2
	go.uber.org/goleak v1.3.0
	golang.org/x/oauth2 v0.36.0
)

require github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
