// Tests of FailscopeReporter.
