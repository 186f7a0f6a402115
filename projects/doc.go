// Package projects holds the records of the project calls: Project,
// Language and the NewProject of a new project. The calls are
// partner.Client.Projects (a *partner.ProjectsService).
//
// Project and language records keep everything the service sent in Raw,
// since their fields are not fixed.
package projects
