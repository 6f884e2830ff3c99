// Tests of FailscopeClient.
