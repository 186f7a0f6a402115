// Package organizations holds the record of endpoint 2: the organizations a
// user granted the application access to. The call is
// partner.Client.Organizations.List.
package organizations
