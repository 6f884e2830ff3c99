// Tests of FailscopeService.
