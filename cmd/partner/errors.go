package main

import (
	"errors"
	"fmt"
	"strings"

	partner "github.com/locsvc/partner-go"
	"github.com/locsvc/partner-go/locales"
)

// Exit codes, as the README documents them.
const (
	exitOK       = 0
	exitFailure  = 1
	exitUsage    = 2
	exitReauth   = 3
	exitSomeFail = 4
)

// usageError is a mistake in how the command was called: a flag, an
// argument or a setting. It exits with exitUsage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usageErrorf(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// partialError reports that some items of a command failed or are not
// confirmed (the service may have done them), and the others were done.
// It exits with exitSomeFail; the result was printed already.
type partialError struct{ failed, notConfirmed, total int }

func (e *partialError) Error() string {
	if e.notConfirmed > 0 {
		return fmt.Sprintf("%d of %d failed, %d not confirmed by the service: run the command again to complete it", e.failed, e.total, e.notConfirmed)
	}
	return fmt.Sprintf("%d of %d failed", e.failed, e.total)
}

// coverageError reports the languages translated below --min-coverage.
// It exits with exitSomeFail; the status was printed already.
type coverageError struct {
	min   int
	below []string // "de (40%)"
}

func (e *coverageError) Error() string {
	return fmt.Sprintf("translated below %d%%: %s", e.min, strings.Join(e.below, ", "))
}

// exitCode maps an error to the exit code the README documents.
func exitCode(err error) int {
	var ue *usageError
	var pe *partialError
	var ce *coverageError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ue):
		return exitUsage
	case reauth(err):
		return exitReauth
	case errors.As(err, &pe), errors.As(err, &ce):
		return exitSomeFail
	}
	return exitFailure
}

// advice says what to do about err, or "" when the message says it all.
func advice(err error) string {
	var ms *partner.MissingScopeError
	switch {
	case reauth(err):
		return "the grant is gone (revoked, or its refresh token was refused): run `partner connect` to connect again, and keep the new token in PARTNER_STORE"
	case errors.As(err, &ms):
		return fmt.Sprintf("the grant lacks the scope %s: run `partner connect --scopes %s,...` and consent to it", ms.Required, ms.Required)
	case errors.Is(err, partner.ErrConfiguration):
		return "check PARTNER_BASE_URL, PARTNER_AUTH_URL, PARTNER_MCP_URL, PARTNER_CLIENT_ID and PARTNER_CLIENT_SECRET"
	case errors.Is(err, partner.ErrTemporary):
		return "the service is busy or unreachable: try again later"
	}
	return ""
}

// reauth reports whether err says the grant is gone and the user must
// connect again.
func reauth(err error) bool {
	return errors.Is(err, partner.ErrReauthorizationRequired) ||
		errors.Is(err, partner.ErrGrantRevoked) || errors.Is(err, partner.ErrInvalidGrant)
}

// errorDoc is what a command run with --json prints on stdout when it
// fails before it printed its result: {"error": {...}}.
type errorDoc struct {
	Error errorView `json:"error"`
}

type errorView struct {
	Message  string `json:"message"`
	ExitCode int    `json:"exitCode"`
	// Problems are those of a *locales.InputError (bad locale files, a
	// tree's languages the project lacks), every one; [] for others.
	Problems []problemView `json:"problems"`
}

// problemView is one problem of the input: file and line ("" and 0 when
// not in one file), key ("" when none) and what is wrong.
type problemView struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Key     string `json:"key"`
	Message string `json:"message"`
}

// errorJSON returns err as the --json error document.
func errorJSON(err error) errorDoc {
	v := errorView{Message: strings.TrimPrefix(err.Error(), "partner: "), ExitCode: exitCode(err), Problems: []problemView{}}
	var ie *locales.InputError
	if errors.As(err, &ie) {
		for _, p := range ie.Problems {
			msg := p.Message
			if p.File == "" && p.Language != "" && !strings.Contains(msg, p.Language) {
				msg = p.Language + ": " + msg
			}
			v.Problems = append(v.Problems, problemView{File: p.File, Line: p.Line, Key: p.Key, Message: msg})
		}
	}
	return errorDoc{v}
}

// wantsJSON reports whether the command line asks for --json, for an
// error found before the flags were all parsed (a wrong flag before it).
func wantsJSON(args []string) bool {
	for _, arg := range args {
		switch arg {
		case "--":
			return false
		case "--json", "--json=true", "--json=1":
			return true
		}
	}
	return false
}
