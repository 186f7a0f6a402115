// Package apierr defines the SDK's error types and decodes the service's
// error bodies. Every package of the SDK returns these types; the root
// package re-exports them so that users see one set of names.
package apierr
