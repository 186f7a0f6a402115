package partnertest

func contentToolDefs() []toolDef { return nil }
