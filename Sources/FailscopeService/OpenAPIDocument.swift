/// The OpenAPI 3.0 document of the Failscope API, served at `/api/v1/openapi.json`: the contract for the
/// reporter, the dashboard and other clients. Edit it here, together with the routes in `FailscopeApplication`
/// (a test checks that every route is documented and every documented path is routed).
enum OpenAPIDocument {
    static let json = #"""
        {
          "openapi": "3.0.3",
          "info": {
            "title": "Failscope API",
            "version": "1.0.0",
            "description": "UI test results, failure screenshots and flaky tests by page. Dates are ISO 8601 UTC; durations are seconds. Every error is {\"error\":{\"code\",\"message\"}}. Optional fields are omitted when absent."
          },
          "servers": [
            {
              "url": "/"
            }
          ],
          "security": [
            {},
            {
              "readToken": []
            },
            {
              "uploadToken": []
            }
          ],
          "paths": {
            "/healthz": {
              "get": {
                "operationId": "health",
                "summary": "Liveness and database check.",
                "security": [
                  {}
                ],
                "responses": {
                  "200": {
                    "description": "Healthy.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Health"
                        }
                      }
                    }
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable"
                  }
                }
              }
            },
            "/metrics": {
              "get": {
                "operationId": "metrics",
                "summary": "Prometheus metrics (text format 0.0.4).",
                "security": [
                  {}
                ],
                "responses": {
                  "200": {
                    "description": "Metrics.",
                    "content": {
                      "text/plain": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/api/v1/openapi.json": {
              "get": {
                "operationId": "openapi",
                "summary": "This document.",
                "security": [
                  {}
                ],
                "responses": {
                  "200": {
                    "description": "OpenAPI 3.0 document.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "type": "object"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/api/v1/runs": {
              "get": {
                "operationId": "listRuns",
                "summary": "Runs, newest first, with cursor pagination.",
                "security": [
                  {},
                  {
                    "readToken": []
                  },
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/project"
                  },
                  {
                    "$ref": "#/components/parameters/branch"
                  },
                  {
                    "name": "status",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "$ref": "#/components/schemas/RunStatus"
                    },
                    "description": "Only runs in this state."
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 200,
                      "default": 50
                    },
                    "description": "Page size."
                  },
                  {
                    "$ref": "#/components/parameters/cursor"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page of runs.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/RunList"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  }
                }
              }
            },
            "/api/v1/runs/{runId}": {
              "put": {
                "operationId": "putRun",
                "summary": "Create or update a run (idempotent). The body's id must equal runId; a run's project cannot change.",
                "security": [
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/runIdPath"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/Run"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Updated.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/RunSummary"
                        }
                      }
                    }
                  },
                  "201": {
                    "description": "Created.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/RunSummary"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "409": {
                    "$ref": "#/components/responses/Conflict"
                  },
                  "413": {
                    "$ref": "#/components/responses/ContentTooLarge"
                  },
                  "415": {
                    "$ref": "#/components/responses/UnsupportedMediaType"
                  },
                  "422": {
                    "$ref": "#/components/responses/UnprocessableContent"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable2"
                  },
                  "507": {
                    "$ref": "#/components/responses/InsufficientStorage"
                  }
                }
              },
              "get": {
                "operationId": "getRun",
                "summary": "A run with its results grouped by page, then call site.",
                "security": [
                  {},
                  {
                    "readToken": []
                  },
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/runIdPath"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The run.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/RunDetail"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/api/v1/runs/{runId}/results": {
              "post": {
                "operationId": "postResults",
                "summary": "Add a batch of results (one transaction; idempotent per result key: suite, name, arguments, device, attempt).",
                "security": [
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/runIdPath"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/ResultBatch"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Stored (duplicates left unchanged).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/BatchOutcome"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "413": {
                    "$ref": "#/components/responses/ContentTooLarge"
                  },
                  "415": {
                    "$ref": "#/components/responses/UnsupportedMediaType"
                  },
                  "422": {
                    "$ref": "#/components/responses/UnprocessableContent"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable2"
                  },
                  "507": {
                    "$ref": "#/components/responses/InsufficientStorage"
                  }
                }
              }
            },
            "/api/v1/runs/{runId}/finish": {
              "post": {
                "operationId": "finishRun",
                "summary": "Mark the run finished (idempotent).",
                "security": [
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/runIdPath"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/json": {
                      "schema": {
                        "$ref": "#/components/schemas/RunFinish"
                      }
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "The finished run.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/RunSummary"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "413": {
                    "$ref": "#/components/responses/ContentTooLarge"
                  },
                  "415": {
                    "$ref": "#/components/responses/UnsupportedMediaType"
                  },
                  "422": {
                    "$ref": "#/components/responses/UnprocessableContent"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable2"
                  },
                  "507": {
                    "$ref": "#/components/responses/InsufficientStorage"
                  }
                }
              }
            },
            "/api/v1/artifacts/{sha256}": {
              "put": {
                "operationId": "putArtifact",
                "summary": "Upload a screenshot (image/png) or element tree (application/json) named by the SHA-256 of its bytes; verified before it is stored; identical uploads are stored once.",
                "security": [
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/sha256Path"
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "image/png": {
                      "schema": {
                        "type": "string",
                        "format": "binary"
                      }
                    },
                    "application/json": {
                      "schema": {}
                    }
                  }
                },
                "responses": {
                  "200": {
                    "description": "Already stored.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ArtifactLink"
                        }
                      }
                    }
                  },
                  "201": {
                    "description": "Stored.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ArtifactLink"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  },
                  "413": {
                    "$ref": "#/components/responses/ContentTooLarge"
                  },
                  "415": {
                    "$ref": "#/components/responses/UnsupportedMediaType"
                  },
                  "422": {
                    "$ref": "#/components/responses/UnprocessableContent"
                  },
                  "503": {
                    "$ref": "#/components/responses/Unavailable2"
                  },
                  "507": {
                    "$ref": "#/components/responses/InsufficientStorage"
                  }
                }
              },
              "get": {
                "operationId": "getArtifactInfo",
                "summary": "Whether an artifact is stored (HEAD works the same, without a body).",
                "security": [
                  {},
                  {
                    "readToken": []
                  },
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/sha256Path"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Stored.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ArtifactLink"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/api/v1/results/{resultId}": {
              "get": {
                "operationId": "getResult",
                "summary": "One result: failures, artifact links, trail, element frame, last passing screenshot of its page.",
                "security": [
                  {},
                  {
                    "readToken": []
                  },
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "name": "resultId",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "integer",
                      "minimum": 1
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The result.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/ResultDetail"
                        }
                      }
                    }
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/api/v1/tests/{testId}/history": {
              "get": {
                "operationId": "getTestHistory",
                "summary": "A test's results, newest first.",
                "security": [
                  {},
                  {
                    "readToken": []
                  },
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "name": "testId",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string",
                      "pattern": "^[0-9a-f]{32}$"
                    }
                  },
                  {
                    "name": "limit",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 500,
                      "default": 100
                    },
                    "description": "Page size."
                  },
                  {
                    "$ref": "#/components/parameters/cursor"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The history.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/TestHistory"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/api/v1/pages": {
              "get": {
                "operationId": "listPages",
                "summary": "Pages over a window of days, ranked by flaky failures (docs/flaky.md), with result and failure counts.",
                "security": [
                  {},
                  {
                    "readToken": []
                  },
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/project"
                  },
                  {
                    "$ref": "#/components/parameters/branch"
                  },
                  {
                    "$ref": "#/components/parameters/days"
                  },
                  {
                    "name": "device",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string"
                    },
                    "description": "Only flaky failures on this device (the page counts ignore it)."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Pages, most flaky failures first, then most failures.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/FlakyPageList"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  }
                }
              }
            },
            "/api/v1/flaky": {
              "get": {
                "operationId": "listFlakyTests",
                "summary": "Flaky tests (optionally of one page) with their evidence, and broken tests apart (docs/flaky.md).",
                "security": [
                  {},
                  {
                    "readToken": []
                  },
                  {
                    "uploadToken": []
                  }
                ],
                "parameters": [
                  {
                    "name": "page",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string"
                    },
                    "description": "Only tests with a failure on this page in the window; \"(no page)\" for results without a page. An unknown page gives empty lists."
                  },
                  {
                    "name": "suite",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string"
                    },
                    "description": "With page=(no page): only this suite (with any other page, or none, a 400)."
                  },
                  {
                    "$ref": "#/components/parameters/project"
                  },
                  {
                    "name": "branch",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string"
                    },
                    "description": "Only this branch; without it the rules apply to each branch on its own."
                  },
                  {
                    "$ref": "#/components/parameters/days"
                  },
                  {
                    "name": "device",
                    "in": "query",
                    "required": false,
                    "schema": {
                      "type": "string"
                    },
                    "description": "Only results on this device (the result's, else its run's)."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "Flaky tests, most failures first, and broken tests.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/FlakyReport"
                        }
                      }
                    }
                  },
                  "400": {
                    "$ref": "#/components/responses/BadRequest"
                  },
                  "401": {
                    "$ref": "#/components/responses/Unauthorized"
                  }
                }
              }
            },
            "/artifacts/{sha256}.png": {
              "get": {
                "operationId": "getScreenshot",
                "summary": "A stored screenshot: immutable, ETag, nosniff, CSP sandbox.",
                "security": [
                  {}
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/sha256Path"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The PNG.",
                    "content": {
                      "image/png": {
                        "schema": {
                          "type": "string",
                          "format": "binary"
                        }
                      }
                    }
                  },
                  "304": {
                    "description": "Not modified."
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            },
            "/artifacts/{sha256}.json": {
              "get": {
                "operationId": "getElementTree",
                "summary": "A stored element tree: immutable, ETag, nosniff, CSP sandbox.",
                "security": [
                  {}
                ],
                "parameters": [
                  {
                    "$ref": "#/components/parameters/sha256Path"
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The JSON.",
                    "content": {
                      "application/json": {
                        "schema": {}
                      }
                    }
                  },
                  "304": {
                    "description": "Not modified."
                  },
                  "404": {
                    "$ref": "#/components/responses/NotFound"
                  }
                }
              }
            }
          },
          "components": {
            "schemas": {
              "SourceLocation": {
                "type": "object",
                "properties": {
                  "file": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "line": {
                    "type": "integer",
                    "minimum": 0
                  }
                },
                "required": [
                  "file",
                  "line"
                ]
              },
              "Frame": {
                "type": "object",
                "properties": {
                  "x": {
                    "type": "number"
                  },
                  "y": {
                    "type": "number"
                  },
                  "width": {
                    "type": "number"
                  },
                  "height": {
                    "type": "number"
                  }
                },
                "required": [
                  "x",
                  "y",
                  "width",
                  "height"
                ]
              },
              "TrailStep": {
                "type": "object",
                "properties": {
                  "page": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "action": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "callSite": {
                    "$ref": "#/components/schemas/SourceLocation"
                  }
                },
                "required": [
                  "page"
                ]
              },
              "ArtifactRef": {
                "type": "object",
                "properties": {
                  "sha256": {
                    "type": "string",
                    "pattern": "^[0-9a-f]{64}$"
                  },
                  "kind": {
                    "type": "string",
                    "enum": [
                      "screenshot",
                      "element_tree"
                    ]
                  },
                  "byteCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "width": {
                    "type": "integer"
                  },
                  "height": {
                    "type": "integer"
                  }
                },
                "required": [
                  "sha256",
                  "kind",
                  "byteCount"
                ]
              },
              "Failure": {
                "type": "object",
                "properties": {
                  "message": {
                    "type": "string"
                  },
                  "location": {
                    "$ref": "#/components/schemas/SourceLocation"
                  },
                  "page": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "action": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "callSite": {
                    "$ref": "#/components/schemas/SourceLocation"
                  },
                  "elementFrame": {
                    "$ref": "#/components/schemas/Frame"
                  },
                  "isError": {
                    "type": "boolean"
                  }
                },
                "required": [
                  "message",
                  "isError"
                ]
              },
              "TestStatus": {
                "type": "string",
                "enum": [
                  "passed",
                  "failed",
                  "error",
                  "skipped",
                  "expected_failure"
                ]
              },
              "TestResult": {
                "type": "object",
                "properties": {
                  "suite": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 4096
                  },
                  "name": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 4096
                  },
                  "arguments": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "device": {
                    "type": "string",
                    "maxLength": 4096,
                    "not": {
                      "const": "*"
                    }
                  },
                  "attempt": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": 1000
                  },
                  "status": {
                    "$ref": "#/components/schemas/TestStatus"
                  },
                  "skipReason": {
                    "type": "string"
                  },
                  "startedAt": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "duration": {
                    "type": "number",
                    "minimum": 0
                  },
                  "failures": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Failure"
                    }
                  },
                  "trail": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/TrailStep"
                    }
                  },
                  "artifacts": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/ArtifactRef"
                    }
                  },
                  "systemOut": {
                    "type": "string"
                  },
                  "systemErr": {
                    "type": "string"
                  }
                },
                "required": [
                  "suite",
                  "name",
                  "attempt",
                  "status",
                  "failures",
                  "trail",
                  "artifacts"
                ]
              },
              "Run": {
                "type": "object",
                "properties": {
                  "id": {
                    "type": "string",
                    "pattern": "^[A-Za-z0-9._-]{1,64}$",
                    "minLength": 1,
                    "maxLength": 64
                  },
                  "project": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": 4096
                  },
                  "branch": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "commit": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "device": {
                    "type": "string",
                    "maxLength": 4096,
                    "not": {
                      "const": "*"
                    }
                  },
                  "osVersion": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "ciProvider": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "ciBuildURL": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "ciJob": {
                    "type": "string",
                    "maxLength": 4096
                  },
                  "source": {
                    "type": "string",
                    "enum": [
                      "reporter",
                      "junit",
                      "event_stream",
                      "xcresult"
                    ]
                  },
                  "startedAt": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "finishedAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                },
                "required": [
                  "id",
                  "project",
                  "source",
                  "startedAt"
                ]
              },
              "ResultBatch": {
                "type": "object",
                "properties": {
                  "results": {
                    "type": "array",
                    "maxItems": 1000,
                    "items": {
                      "$ref": "#/components/schemas/TestResult"
                    }
                  }
                },
                "required": [
                  "results"
                ]
              },
              "RunFinish": {
                "type": "object",
                "properties": {
                  "finishedAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                },
                "required": [
                  "finishedAt"
                ]
              },
              "BatchOutcome": {
                "type": "object",
                "properties": {
                  "inserted": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "duplicates": {
                    "type": "integer",
                    "minimum": 0
                  }
                },
                "required": [
                  "inserted",
                  "duplicates"
                ]
              },
              "RunStatus": {
                "type": "string",
                "enum": [
                  "incomplete",
                  "passed",
                  "failed"
                ]
              },
              "ResultCounts": {
                "type": "object",
                "properties": {
                  "total": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "passed": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "failed": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "error": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "skipped": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "expectedFailure": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "failingTests": {
                    "type": "integer",
                    "minimum": 0
                  }
                },
                "required": [
                  "total",
                  "passed",
                  "failed",
                  "error",
                  "skipped",
                  "expectedFailure",
                  "failingTests"
                ]
              },
              "RunSummary": {
                "type": "object",
                "properties": {
                  "run": {
                    "$ref": "#/components/schemas/Run"
                  },
                  "status": {
                    "$ref": "#/components/schemas/RunStatus"
                  },
                  "counts": {
                    "$ref": "#/components/schemas/ResultCounts"
                  }
                },
                "required": [
                  "run",
                  "status",
                  "counts"
                ]
              },
              "RunList": {
                "type": "object",
                "properties": {
                  "runs": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/RunSummary"
                    }
                  },
                  "nextCursor": {
                    "type": "string"
                  }
                },
                "required": [
                  "runs"
                ]
              },
              "ResultSummary": {
                "type": "object",
                "properties": {
                  "id": {
                    "type": "integer",
                    "minimum": 1
                  },
                  "runId": {
                    "type": "string"
                  },
                  "testId": {
                    "type": "string",
                    "pattern": "^[0-9a-f]{32}$"
                  },
                  "suite": {
                    "type": "string"
                  },
                  "name": {
                    "type": "string"
                  },
                  "arguments": {
                    "type": "string"
                  },
                  "device": {
                    "type": "string"
                  },
                  "attempt": {
                    "type": "integer",
                    "minimum": 1
                  },
                  "status": {
                    "$ref": "#/components/schemas/TestStatus"
                  },
                  "startedAt": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "duration": {
                    "type": "number"
                  },
                  "page": {
                    "type": "string"
                  },
                  "callSite": {
                    "$ref": "#/components/schemas/SourceLocation"
                  },
                  "message": {
                    "type": "string"
                  },
                  "screenshot": {
                    "type": "string",
                    "pattern": "^[0-9a-f]{64}$"
                  }
                },
                "required": [
                  "id",
                  "runId",
                  "testId",
                  "suite",
                  "name",
                  "attempt",
                  "status"
                ]
              },
              "CallSiteGroup": {
                "type": "object",
                "properties": {
                  "callSite": {
                    "$ref": "#/components/schemas/SourceLocation"
                  },
                  "results": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/ResultSummary"
                    }
                  }
                },
                "required": [
                  "results"
                ]
              },
              "PageGroup": {
                "type": "object",
                "properties": {
                  "page": {
                    "type": "string"
                  },
                  "counts": {
                    "$ref": "#/components/schemas/ResultCounts"
                  },
                  "callSites": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/CallSiteGroup"
                    }
                  }
                },
                "required": [
                  "counts",
                  "callSites"
                ]
              },
              "RunDetail": {
                "type": "object",
                "properties": {
                  "summary": {
                    "$ref": "#/components/schemas/RunSummary"
                  },
                  "pages": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/PageGroup"
                    }
                  }
                },
                "required": [
                  "summary",
                  "pages"
                ]
              },
              "ArtifactLink": {
                "type": "object",
                "properties": {
                  "sha256": {
                    "type": "string",
                    "pattern": "^[0-9a-f]{64}$"
                  },
                  "kind": {
                    "type": "string",
                    "enum": [
                      "screenshot",
                      "element_tree"
                    ]
                  },
                  "byteCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "width": {
                    "type": "integer"
                  },
                  "height": {
                    "type": "integer"
                  },
                  "url": {
                    "type": "string"
                  },
                  "available": {
                    "type": "boolean"
                  }
                },
                "required": [
                  "sha256",
                  "kind",
                  "byteCount",
                  "url",
                  "available"
                ]
              },
              "PassingScreenshot": {
                "type": "object",
                "properties": {
                  "resultId": {
                    "type": "integer"
                  },
                  "runId": {
                    "type": "string"
                  },
                  "artifact": {
                    "$ref": "#/components/schemas/ArtifactLink"
                  }
                },
                "required": [
                  "resultId",
                  "runId",
                  "artifact"
                ]
              },
              "ResultDetail": {
                "type": "object",
                "properties": {
                  "result": {
                    "$ref": "#/components/schemas/ResultSummary"
                  },
                  "run": {
                    "$ref": "#/components/schemas/RunSummary"
                  },
                  "skipReason": {
                    "type": "string"
                  },
                  "failures": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Failure"
                    }
                  },
                  "artifacts": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/ArtifactLink"
                    }
                  },
                  "trail": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/TrailStep"
                    }
                  },
                  "pagesVisited": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "elementFrame": {
                    "$ref": "#/components/schemas/Frame"
                  },
                  "lastPassingScreenshot": {
                    "$ref": "#/components/schemas/PassingScreenshot"
                  },
                  "systemOut": {
                    "type": "string"
                  },
                  "systemErr": {
                    "type": "string"
                  }
                },
                "required": [
                  "result",
                  "run",
                  "failures",
                  "artifacts",
                  "trail",
                  "pagesVisited"
                ]
              },
              "TestIdentity": {
                "type": "object",
                "properties": {
                  "id": {
                    "type": "string",
                    "pattern": "^[0-9a-f]{32}$"
                  },
                  "project": {
                    "type": "string"
                  },
                  "suite": {
                    "type": "string"
                  },
                  "name": {
                    "type": "string"
                  },
                  "arguments": {
                    "type": "string"
                  }
                },
                "required": [
                  "id",
                  "project",
                  "suite",
                  "name"
                ]
              },
              "HistoryEntry": {
                "type": "object",
                "properties": {
                  "result": {
                    "$ref": "#/components/schemas/ResultSummary"
                  },
                  "branch": {
                    "type": "string"
                  },
                  "commit": {
                    "type": "string"
                  },
                  "ranAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                },
                "required": [
                  "result",
                  "ranAt"
                ]
              },
              "TestHistory": {
                "type": "object",
                "properties": {
                  "test": {
                    "$ref": "#/components/schemas/TestIdentity"
                  },
                  "entries": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/HistoryEntry"
                    }
                  },
                  "nextCursor": {
                    "type": "string"
                  }
                },
                "required": [
                  "test",
                  "entries"
                ]
              },
              "PageSummary": {
                "type": "object",
                "properties": {
                  "page": {
                    "type": "string"
                  },
                  "resultCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "failureCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "failingTestCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "lastFailureAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                },
                "required": [
                  "page",
                  "resultCount",
                  "failureCount",
                  "failingTestCount"
                ]
              },
              "PageList": {
                "type": "object",
                "properties": {
                  "since": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "pages": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/PageSummary"
                    }
                  }
                },
                "required": [
                  "since",
                  "pages"
                ]
              },
              "DeviceCount": {
                "type": "object",
                "properties": {
                  "device": {
                    "type": "string"
                  },
                  "failureCount": {
                    "type": "integer",
                    "minimum": 0
                  }
                },
                "required": [
                  "device",
                  "failureCount"
                ]
              },
              "FlakyPageSummary": {
                "type": "object",
                "properties": {
                  "page": {
                    "type": "string",
                    "description": "The page, or \"(no page)\" (then suite says whose)."
                  },
                  "suite": {
                    "type": "string"
                  },
                  "resultCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "failureCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "failingTestCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "lastFailureAt": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "flakyTestCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "flakyFailureCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "lastFlakyFailureAt": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "devices": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/DeviceCount"
                    }
                  }
                },
                "required": [
                  "page",
                  "resultCount",
                  "failureCount",
                  "failingTestCount",
                  "flakyTestCount",
                  "flakyFailureCount",
                  "devices"
                ]
              },
              "FlakyPageList": {
                "type": "object",
                "properties": {
                  "since": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "pages": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/FlakyPageSummary"
                    }
                  }
                },
                "required": [
                  "since",
                  "pages"
                ]
              },
              "FlakyPolicy": {
                "type": "object",
                "properties": {
                  "recentResults": {
                    "type": "integer"
                  },
                  "flipRateThreshold": {
                    "type": "number"
                  },
                  "minimumResults": {
                    "type": "integer"
                  },
                  "recoveryPasses": {
                    "type": "integer"
                  },
                  "brokenMinimum": {
                    "type": "integer"
                  }
                },
                "required": [
                  "recentResults",
                  "flipRateThreshold",
                  "minimumResults",
                  "recoveryPasses",
                  "brokenMinimum"
                ]
              },
              "FailureLink": {
                "type": "object",
                "properties": {
                  "resultId": {
                    "type": "integer"
                  },
                  "runId": {
                    "type": "string"
                  },
                  "ranAt": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "screenshot": {
                    "type": "string",
                    "description": "/artifacts/{sha256}.png"
                  }
                },
                "required": [
                  "resultId",
                  "runId",
                  "ranAt"
                ]
              },
              "ContradictingCommit": {
                "type": "object",
                "properties": {
                  "commit": {
                    "type": "string"
                  },
                  "passes": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "fails": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "seenAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                },
                "required": [
                  "commit",
                  "passes",
                  "fails",
                  "seenAt"
                ]
              },
              "FlakyPageCount": {
                "type": "object",
                "properties": {
                  "page": {
                    "type": "string"
                  },
                  "suite": {
                    "type": "string"
                  },
                  "failureCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "lastFailureAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                },
                "required": [
                  "page",
                  "failureCount",
                  "lastFailureAt"
                ]
              },
              "FlakyCallSite": {
                "type": "object",
                "properties": {
                  "file": {
                    "type": "string"
                  },
                  "line": {
                    "type": "integer"
                  },
                  "page": {
                    "type": "string"
                  },
                  "totalFailureCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "lastFailureAt": {
                    "type": "string",
                    "format": "date-time"
                  }
                },
                "required": [
                  "file",
                  "line",
                  "page",
                  "totalFailureCount",
                  "lastFailureAt"
                ]
              },
              "FlakyTest": {
                "type": "object",
                "properties": {
                  "testId": {
                    "type": "string"
                  },
                  "project": {
                    "type": "string"
                  },
                  "suite": {
                    "type": "string"
                  },
                  "name": {
                    "type": "string"
                  },
                  "arguments": {
                    "type": "string"
                  },
                  "branch": {
                    "type": "string"
                  },
                  "reasons": {
                    "type": "array",
                    "items": {
                      "type": "string",
                      "enum": [
                        "contradiction",
                        "flip_rate"
                      ]
                    }
                  },
                  "flipRate": {
                    "type": "number",
                    "description": "flips / (sampleCount - 1); absent with fewer than minimumResults results."
                  },
                  "flips": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "sampleCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "passCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "failCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "contradictingCommits": {
                    "type": "array",
                    "maxItems": 5,
                    "items": {
                      "$ref": "#/components/schemas/ContradictingCommit"
                    }
                  },
                  "contradictingCommitCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "firstFlakyFailureAt": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "lastFlakyFailureAt": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "pages": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/FlakyPageCount"
                    }
                  },
                  "callSites": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/FlakyCallSite"
                    }
                  },
                  "devices": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/DeviceCount"
                    }
                  },
                  "newestFailure": {
                    "$ref": "#/components/schemas/FailureLink"
                  }
                },
                "required": [
                  "testId",
                  "project",
                  "suite",
                  "name",
                  "branch",
                  "reasons",
                  "flips",
                  "sampleCount",
                  "passCount",
                  "failCount",
                  "contradictingCommits",
                  "contradictingCommitCount",
                  "pages",
                  "callSites",
                  "devices"
                ]
              },
              "BrokenTest": {
                "type": "object",
                "properties": {
                  "testId": {
                    "type": "string"
                  },
                  "project": {
                    "type": "string"
                  },
                  "suite": {
                    "type": "string"
                  },
                  "name": {
                    "type": "string"
                  },
                  "arguments": {
                    "type": "string"
                  },
                  "branch": {
                    "type": "string"
                  },
                  "commit": {
                    "type": "string"
                  },
                  "failCount": {
                    "type": "integer",
                    "minimum": 0
                  },
                  "newestFailure": {
                    "$ref": "#/components/schemas/FailureLink"
                  }
                },
                "required": [
                  "testId",
                  "project",
                  "suite",
                  "name",
                  "branch",
                  "commit",
                  "failCount"
                ]
              },
              "FlakyReport": {
                "type": "object",
                "properties": {
                  "since": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "days": {
                    "type": "integer"
                  },
                  "project": {
                    "type": "string"
                  },
                  "branch": {
                    "type": "string"
                  },
                  "device": {
                    "type": "string"
                  },
                  "page": {
                    "type": "string"
                  },
                  "suite": {
                    "type": "string"
                  },
                  "policy": {
                    "$ref": "#/components/schemas/FlakyPolicy"
                  },
                  "flaky": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/FlakyTest"
                    }
                  },
                  "broken": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/BrokenTest"
                    }
                  }
                },
                "required": [
                  "since",
                  "days",
                  "policy",
                  "flaky",
                  "broken"
                ]
              },
              "Error": {
                "type": "object",
                "properties": {
                  "error": {
                    "type": "object",
                    "properties": {
                      "code": {
                        "type": "string"
                      },
                      "message": {
                        "type": "string"
                      }
                    },
                    "required": [
                      "code",
                      "message"
                    ]
                  }
                },
                "required": [
                  "error"
                ]
              },
              "Health": {
                "type": "object",
                "description": "status ok; or degraded with storage full when the disk holding the data folder is full (uploads get 507, reads work).",
                "properties": {
                  "status": {
                    "type": "string",
                    "enum": [
                      "ok",
                      "degraded"
                    ]
                  },
                  "storage": {
                    "type": "string",
                    "enum": [
                      "full"
                    ]
                  },
                  "message": {
                    "type": "string"
                  }
                },
                "required": [
                  "status"
                ]
              }
            },
            "securitySchemes": {
              "uploadToken": {
                "type": "http",
                "scheme": "bearer",
                "description": "An upload token (--upload-token / FAILSCOPE_UPLOAD_TOKENS)."
              },
              "readToken": {
                "type": "http",
                "scheme": "bearer",
                "description": "The read token (FAILSCOPE_READ_TOKEN), needed for reads only when configured."
              }
            },
            "responses": {
              "BadRequest": {
                "description": "Malformed request (invalid JSON, wrong types, bad parameter).",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Conflict": {
                "description": "Conflicts with stored data.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "ContentTooLarge": {
                "description": "Body too large.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "NotFound": {
                "description": "Not found.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Unauthorized": {
                "description": "Missing or invalid bearer token.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Unavailable": {
                "description": "Database not answering.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "InsufficientStorage": {
                "description": "The disk holding the data folder is full (code insufficient_storage): nothing of the request was stored; retry once space is freed. Reads keep working.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "Unavailable2": {
                "description": "Database busy; retry.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "UnprocessableContent": {
                "description": "Valid JSON that breaks a rule.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              },
              "UnsupportedMediaType": {
                "description": "Unsupported Content-Type.",
                "content": {
                  "application/json": {
                    "schema": {
                      "$ref": "#/components/schemas/Error"
                    }
                  }
                }
              }
            },
            "parameters": {
              "branch": {
                "description": "Only this branch.",
                "in": "query",
                "name": "branch",
                "required": false,
                "schema": {
                  "type": "string"
                }
              },
              "cursor": {
                "description": "nextCursor of the previous page.",
                "in": "query",
                "name": "cursor",
                "required": false,
                "schema": {
                  "type": "string"
                }
              },
              "days": {
                "description": "Window in whole UTC days ending today.",
                "in": "query",
                "name": "days",
                "required": false,
                "schema": {
                  "default": 14,
                  "maximum": 365,
                  "minimum": 1,
                  "type": "integer"
                }
              },
              "project": {
                "description": "Only this project.",
                "in": "query",
                "name": "project",
                "required": false,
                "schema": {
                  "type": "string"
                }
              },
              "runIdPath": {
                "in": "path",
                "name": "runId",
                "required": true,
                "schema": {
                  "maxLength": 64,
                  "minLength": 1,
                  "pattern": "^[A-Za-z0-9._-]{1,64}$",
                  "type": "string"
                }
              },
              "sha256Path": {
                "in": "path",
                "name": "sha256",
                "required": true,
                "schema": {
                  "pattern": "^[0-9a-f]{64}$",
                  "type": "string"
                }
              }
            }
          }
        }
        """#
}
