package toolcalls

// CheckProject checks an "org/project" name as every tool call does (see
// checkProject); its error matches apierr.ErrInvalidArgument.
func CheckProject(project string) error { return checkProject(project) }
