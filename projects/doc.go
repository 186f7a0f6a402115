// Package projects lists, creates and reads an organization's projects and
// adds target languages to them (endpoints 3 to 6). Get a Service from
// partner.Client.Projects.
//
// Project and language records keep everything the service sent in Raw,
// since the spec does not show their fields.
package projects
