package partner_test

import (
	"github.com/locsvc/partner-go/auth"
)

// plainStore hides a Store's optional interfaces: a Store that shares no
// lease and no installation token, as before replicas could share them.
type plainStore struct{ auth.Store }
