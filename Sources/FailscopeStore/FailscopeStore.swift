// The FailscopeStore module; see DESIGN.md, "Targets".
