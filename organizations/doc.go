// Package organizations lists the organizations a user granted the
// application access to (endpoint 2).
package organizations
