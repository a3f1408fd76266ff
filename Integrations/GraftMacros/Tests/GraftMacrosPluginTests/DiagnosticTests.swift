import GraftMacrosPlugin
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// One test per diagnostic: its message, where it points and its fix-its, applied where there is one.
@Suite struct DiagnosticTests {
    @Test func onAnEnum() {
        expectExpansion(
            """
            @Injectable
            enum Gear {
                case first
            }
            """,
            expands: """
                enum Gear {
                    case first
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Injectable applies to a class, struct or actor, not to an enum: register an enum's value with builder.register(_:instance:)",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func onAProtocol() {
        expectExpansion(
            """
            @Injectable
            protocol Engine {}
            """,
            expands: """
                protocol Engine {}
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Injectable applies to a class, struct or actor, not to a protocol: attach it to a type that conforms and list the protocol in 'as:'",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func failableInitializer() {
        expectExpansion(
            """
            @Injectable
            struct Radio {
                init?(frequency: Frequency) {}
            }
            """,
            expands: """
                struct Radio {
                    init?(frequency: Frequency) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Injectable found no initializer of 'Radio' that Graft can call: 'init?(frequency:)' is failable, and a registration makes an instance, not an optional",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func markedInitializerIsVariadic() {
        expectExpansion(
            """
            @Injectable
            struct Radio {
                @Inject init(channels: Int...) {}
                init() {}
            }
            """,
            expands: """
                struct Radio {
                    init(channels: Int...) {}
                    init() {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Injectable found no initializer of 'Radio' that Graft can call: 'init(channels:)' takes a variadic parameter",
                    line: 3,
                    column: 13
                )
            ]
        )
    }

    @Test func inoutParameter() {
        expectExpansion(
            """
            @Injectable
            struct Radio {
                init(log: inout [String]) {}
            }
            """,
            expands: """
                struct Radio {
                    init(log: inout [String]) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Injectable found no initializer of 'Radio' that Graft can call: 'init(log:)' takes an inout parameter",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func genericInitializer() {
        expectExpansion(
            """
            @Injectable
            struct Radio {
                init<Band: Sendable>(band: Band) {}
            }
            """,
            expands: """
                struct Radio {
                    init<Band: Sendable>(band: Band) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Injectable found no initializer of 'Radio' that Graft can call: 'init(band:)' is generic, and Graft resolves each parameter by its one type",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func opaqueParameter() {
        expectExpansion(
            """
            @Injectable
            struct Radio {
                init(band: some Sendable) {}
            }
            """,
            expands: """
                struct Radio {
                    init(band: some Sendable) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Injectable found no initializer of 'Radio' that Graft can call: 'init(band:)' takes an opaque ('some') parameter, and Graft resolves each parameter by its one type",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func twoInitializersWithoutInject() {
        expectExpansion(
            """
            @Injectable
            struct Telemetry {
                init(radio: Radio) {}
                init(recording: String) {}
            }
            """,
            expands: """
                struct Telemetry {
                    init(radio: Radio) {}
                    init(recording: String) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "'Telemetry' has 2 initializers Graft could call; mark the one it calls with @Inject",
                    line: 1,
                    column: 1,
                    fixIts: [
                        FixItSpec(message: "mark 'init(radio:)' with @Inject"),
                        FixItSpec(message: "mark 'init(recording:)' with @Inject"),
                    ]
                )
            ],
            applyFixIts: ["mark 'init(radio:)' with @Inject"],
            fixedSource: """
                @Injectable
                struct Telemetry {
                    @Inject
                    init(radio: Radio) {}
                    init(recording: String) {}
                }
                """
        )
    }

    @Test func twoInjectMarks() {
        expectExpansion(
            """
            @Injectable
            struct Telemetry {
                @Inject init(radio: Radio) {}
                @Inject init(recording: String) {}
            }
            """,
            expands: """
                struct Telemetry {
                    init(radio: Radio) {}
                    init(recording: String) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "only one initializer of 'Telemetry' can be marked @Inject",
                    line: 4,
                    column: 5
                )
            ]
        )
    }

    @Test func argumentOnSingleton() {
        expectExpansion(
            """
            @Injectable(.singleton, as: (any Stop).self)
            final class PitStop: Sendable {
                init(@Argument lap: Lap) {}
            }
            """,
            expands: """
                final class PitStop: Sendable {
                    init(@Argument lap: Lap) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Argument needs a transient registration: a .singleton instance is shared, so it cannot be made from each caller's arguments",
                    line: 3,
                    column: 10,
                    fixIts: [FixItSpec(message: "remove '.singleton': make the registration transient")]
                )
            ],
            applyFixIts: ["remove '.singleton': make the registration transient"],
            fixedSource: """
                @Injectable(as: (any Stop).self)
                final class PitStop: Sendable {
                    init(@Argument lap: Lap) {}
                }
                """
        )
    }

    @Test func argumentOnTaggedScope() {
        expectExpansion(
            """
            @Injectable(.scoped(in: Session.self))
            final class PitStop: Sendable {
                init(@Argument lap: Lap) {}
            }
            """,
            expands: """
                final class PitStop: Sendable {
                    init(@Argument lap: Lap) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Argument needs a transient registration: a .scoped(in:) instance is shared, so it cannot be made from each caller's arguments",
                    line: 3,
                    column: 10,
                    fixIts: [FixItSpec(message: "remove '.scoped(in:)': make the registration transient")]
                )
            ],
            applyFixIts: ["remove '.scoped(in:)': make the registration transient"],
            fixedSource: """
                @Injectable
                final class PitStop: Sendable {
                    init(@Argument lap: Lap) {}
                }
                """
        )
    }

    @Test func argumentOnMainActor() {
        expectExpansion(
            """
            @Injectable
            final class LapView: Sendable {
                @MainActor init(@Argument lap: Lap) {}
            }
            """,
            expands: """
                final class LapView: Sendable {
                    @MainActor init(@Argument lap: Lap) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "@Argument is not supported on a @MainActor initializer: register it by hand with a closure factory that takes arguments",
                    line: 3,
                    column: 21
                )
            ]
        )
    }

    @Test func emptyName() {
        expectExpansion(
            """
            @Injectable
            final class RaceCar: Sendable {
                init(@Named("") engine: any Engine) {}
            }
            """,
            expands: """
                final class RaceCar: Sendable {
                    init(@Named("") engine: any Engine) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Named needs a name: an empty name registers nothing a resolve can ask for",
                    line: 3,
                    column: 10
                )
            ]
        )
    }

    @Test func interpolatedName() {
        expectExpansion(
            """
            @Injectable
            final class RaceCar: Sendable {
                init(@Named("v\\(cylinders)") engine: any Engine) {}
            }
            """,
            expands: """
                final class RaceCar: Sendable {
                    init(@Named("v\\(cylinders)") engine: any Engine) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Named takes a string literal (\"v12\") or a ServiceName type (V12.self)",
                    line: 3,
                    column: 10
                )
            ]
        )
    }

    @Test func namedArgument() {
        expectExpansion(
            """
            @Injectable
            final class RaceCar: Sendable {
                init(@Named("v12") @Argument engine: any Engine) {}
            }
            """,
            expands: """
                final class RaceCar: Sendable {
                    init(@Named("v12") @Argument engine: any Engine) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "a parameter is either @Named (resolved from the container) or @Argument (passed by the caller), not both",
                    line: 3,
                    column: 24
                )
            ]
        )
    }

    @Test func initializerLessVisibleThanType() {
        expectExpansion(
            """
            @Injectable
            public final class RaceCar: Sendable {
                init(engine: any Engine) {}
            }
            """,
            expands: """
                public final class RaceCar: Sendable {
                    init(engine: any Engine) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'init(engine:)' is internal, less visible than public 'RaceCar': its registration would make instances for code that cannot call the initializer",
                    line: 3,
                    column: 5,
                    fixIts: [FixItSpec(message: "make 'init(engine:)' public")]
                )
            ],
            applyFixIts: ["make 'init(engine:)' public"],
            fixedSource: """
                @Injectable
                public final class RaceCar: Sendable {
                    public init(engine: any Engine) {}
                }
                """
        )
    }

    @Test func privateInitializerOfInternalType() {
        expectExpansion(
            """
            @Injectable
            final class RaceCar: Sendable {
                private init(engine: any Engine) {}
            }
            """,
            expands: """
                final class RaceCar: Sendable {
                    private init(engine: any Engine) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'init(engine:)' is private, less visible than internal 'RaceCar': its registration would make instances for code that cannot call the initializer",
                    line: 3,
                    column: 13,
                    fixIts: [FixItSpec(message: "make 'init(engine:)' internal")]
                )
            ],
            applyFixIts: ["make 'init(engine:)' internal"],
            fixedSource: """
                @Injectable
                final class RaceCar: Sendable {
                    internal init(engine: any Engine) {}
                }
                """
        )
    }

    @Test func implicitInitializerOfPublicStruct() {
        expectExpansion(
            """
            @Injectable
            public struct Radio {
                let channel: Int
            }
            """,
            expands: """
                public struct Radio {
                    let channel: Int
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "the implicit initializer of public 'Radio' is internal: declare a public initializer for its registration to call",
                    line: 1,
                    column: 1
                )
            ]
        )
    }

    @Test func alreadyInjectable() {
        expectExpansion(
            """
            @Injectable
            final class SportsCar: RaceCar {
                init(engine: any Engine) {}
            }
            """,
            expands: """
                final class SportsCar: RaceCar {
                    init(engine: any Engine) {}
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message:
                        "'SportsCar' already conforms to Injectable (by hand or through its superclass), so @Injectable cannot give it a registration of its own; register it by hand",
                    line: 1,
                    column: 1
                )
            ],
            macros: ["Injectable": MacroSpec(type: InjectableMacro.self, conformances: [])]
        )
    }
}
