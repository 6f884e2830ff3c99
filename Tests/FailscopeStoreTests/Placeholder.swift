// Tests of FailscopeStore.
