// Package organizations holds the record of GET
// /api/oauth-client/organizations: the organizations a
// user granted the application access to. The call is
// partner.Client.Organizations.List.
package organizations
