// The FailscopeReporter module; see DESIGN.md, "Targets".
