// The FailscopeImport module; see DESIGN.md, "Targets".
