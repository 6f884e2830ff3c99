// Tests of FailscopeImport.
