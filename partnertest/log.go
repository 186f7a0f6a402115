package partnertest

import (
	"strconv"
	"time"
)

// A Host is one of the Server's listeners.
type Host int

const (
	// HostAny matches every listener in a Fault.
	HostAny Host = iota
	// HostAPI is the resource API at Server.URL.
	HostAPI
	// HostAuth is the token endpoint's server at Server.AuthURL.
	HostAuth
	// HostMCP is the translation tools' server at Server.MCPURL.
	HostMCP
	// HostContentMCP is the content tools' server at
	// Server.ContentMCPURL.
	HostContentMCP
	// HostCDN is the public CDN at Server.CDNURL.
	HostCDN
)

// String returns "any", "api", "auth", "mcp", "content-mcp" or "cdn".
func (h Host) String() string {
	switch h {
	case HostAny:
		return "any"
	case HostAPI:
		return "api"
	case HostAuth:
		return "auth"
	case HostMCP:
		return "mcp"
	case HostContentMCP:
		return "content-mcp"
	case HostCDN:
		return "cdn"
	}
	return "Host(" + strconv.Itoa(int(h)) + ")"
}

// A TokenKind says what a request's Bearer token was.
type TokenKind int

const (
	// TokenNone: no Authorization header with a Bearer token.
	TokenNone TokenKind = iota
	// TokenUnknown: a Bearer token this server never issued.
	TokenUnknown
	// TokenAccess: an access token from the token endpoint.
	TokenAccess
	// TokenInstallation: an installation token from the mint (POST /installations/<grant>/tokens).
	TokenInstallation
)

// String returns "none", "unknown", "access" or "installation".
func (k TokenKind) String() string {
	switch k {
	case TokenNone:
		return "none"
	case TokenUnknown:
		return "unknown"
	case TokenAccess:
		return "access"
	case TokenInstallation:
		return "installation"
	}
	return "TokenKind(" + strconv.Itoa(int(k)) + ")"
}

// A Request is one entry of the request log: a request one of the listeners
// received, and how it was answered.
type Request struct {
	Host   Host
	Method string
	Path   string // URL path, without the query
	// Token is the kind of Bearer token the request carried, expired or not.
	Token TokenKind
	// GrantID is the grant of the Bearer token or, at the token endpoint,
	// of a known refresh token; empty otherwise.
	GrantID string
	// Status is the HTTP status answered, or 0 if the connection was
	// dropped or the request hung until the client gave up.
	Status int
	// Fault reports whether an injected Fault answered or altered the
	// request.
	Fault bool
	// Time is when the request arrived, on the server's clock.
	Time time.Time
	// RPC is the JSON-RPC method of a POST to the MCP listener, such as
	// "tools/call"; empty otherwise.
	RPC string
	// Tool is the tool of a tools/call; empty otherwise.
	Tool string
}

// Requests returns the request log, oldest first: every request any
// listener received, up to the limit set by WithRequestLogLimit. A request
// is logged when its answer has been written.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, 0, len(s.log))
	out = append(out, s.log[s.logNext:]...)
	return append(out, s.log[:s.logNext]...)
}

func (s *Server) logRequest(r Request) {
	if s.logLimit == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.log) < s.logLimit {
		s.log = append(s.log, r)
		return
	}
	s.log[s.logNext] = r
	s.logNext = (s.logNext + 1) % s.logLimit
}
