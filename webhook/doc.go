// Package webhook verifies and decodes the webhook deliveries the
// localization service sends to a customer's endpoint.
package webhook
