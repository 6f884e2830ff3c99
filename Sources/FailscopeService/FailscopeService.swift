// The FailscopeService module; see DESIGN.md, "Targets".
