import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// One test per form of `@Injectable`: what it expands to is the registration written by hand.
@Suite struct ExpansionTests {
    @Test func classAutowiredFromItsOneInitializer() {
        expectExpansion(
            """
            @Injectable
            final class RaceCar: Sendable {
                init(engine: any Engine, transmission: Transmission) {}
            }
            """,
            expands: """
                final class RaceCar: Sendable {
                    init(engine: any Engine, transmission: Transmission) {}
                }

                extension RaceCar: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(RaceCar.self, fileID: "TestModule/test.swift", line: 2, using: RaceCar.init(engine:transmission:))
                    }
                }
                """
        )
    }

    @Test func lifetimeAndAliases() {
        expectExpansion(
            """
            @Injectable(.singleton, as: (any Engine).self, (any Diagnosable).self)
            final class V12Engine: Engine, Diagnosable {
                init() {}
            }
            """,
            expands: """
                final class V12Engine: Engine, Diagnosable {
                    init() {}
                }

                extension V12Engine: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(V12Engine.self, lifetime: .singleton, fileID: "TestModule/test.swift", line: 2, using: V12Engine.init)
                        builder.alias((any Engine).self, to: V12Engine.self, fileID: "TestModule/test.swift", line: 2)
                        builder.alias((any Diagnosable).self, to: V12Engine.self, fileID: "TestModule/test.swift", line: 2)
                    }
                }
                """
        )
    }

    @Test func taggedLifetime() {
        expectExpansion(
            """
            @Injectable(.scoped(in: Session.self))
            final class Cart: Sendable {
                init(store: Store) {}
            }
            """,
            expands: """
                final class Cart: Sendable {
                    init(store: Store) {}
                }

                extension Cart: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(Cart.self, lifetime: .scoped(in: Session.self), fileID: "TestModule/test.swift", line: 2, using: Cart.init(store:))
                    }
                }
                """
        )
    }

    @Test func structMemberwiseInitializer() {
        expectExpansion(
            """
            @Injectable
            struct Telemetry {
                let radio: Radio
                var channel: Int = 3
                var label: String { "telemetry" }
                static let shared = 1
            }
            """,
            expands: """
                struct Telemetry {
                    let radio: Radio
                    var channel: Int = 3
                    var label: String { "telemetry" }
                    static let shared = 1
                }

                extension Telemetry: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        @Sendable func make(_ p0: Radio) -> Telemetry {
                            Telemetry(radio: p0)
                        }
                        builder.register(Telemetry.self, fileID: "TestModule/test.swift", line: 2, using: make)
                    }
                }
                """
        )
    }

    @Test func classWithoutInitializer() {
        expectExpansion(
            """
            @Injectable(.singleton)
            final class Transmission: Sendable {}
            """,
            expands: """
                final class Transmission: Sendable {}

                extension Transmission: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(Transmission.self, lifetime: .singleton, fileID: "TestModule/test.swift", line: 2, using: Transmission.init)
                    }
                }
                """
        )
    }

    @Test func markedInitializerAmongSeveral() {
        expectExpansion(
            """
            @Injectable
            struct Telemetry {
                @Inject init(radio: Radio) {}
                init(recording: String) {}
            }
            """,
            expands: """
                struct Telemetry {
                    init(radio: Radio) {}
                    init(recording: String) {}
                }

                extension Telemetry: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(Telemetry.self, fileID: "TestModule/test.swift", line: 2, using: Telemetry.init(radio:))
                    }
                }
                """
        )
    }

    @Test func markedInitializerWithoutParameters() {
        expectExpansion(
            """
            @Injectable
            struct Telemetry {
                @Inject init() {}
                init(recording: String) {}
            }
            """,
            expands: """
                struct Telemetry {
                    init() {}
                    init(recording: String) {}
                }

                extension Telemetry: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        @Sendable func make() -> Telemetry {
                            Telemetry()
                        }
                        builder.register(Telemetry.self, fileID: "TestModule/test.swift", line: 2, using: make)
                    }
                }
                """
        )
    }

    @Test func designatedInitializerBeforeConvenience() {
        expectExpansion(
            """
            @Injectable
            final class Garage: Sendable {
                init(crew: Crew) {}
                convenience init() { self.init(crew: Crew()) }
            }
            """,
            expands: """
                final class Garage: Sendable {
                    init(crew: Crew) {}
                    convenience init() { self.init(crew: Crew()) }
                }

                extension Garage: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(Garage.self, fileID: "TestModule/test.swift", line: 2, using: Garage.init(crew:))
                    }
                }
                """
        )
    }

    @Test func throwingAsyncInitializer() {
        expectExpansion(
            """
            @Injectable(.singleton)
            actor Database {
                init(settings: Settings) async throws {}
            }
            """,
            expands: """
                actor Database {
                    init(settings: Settings) async throws {}
                }

                extension Database: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(Database.self, lifetime: .singleton, fileID: "TestModule/test.swift", line: 2, using: Database.init(settings:))
                    }
                }
                """
        )
    }

    @Test func mainActorInitializer() {
        expectExpansion(
            """
            @Injectable
            final class LapViewModel: Sendable {
                @MainActor init(timer: LapTimer) {}
            }
            """,
            expands: """
                final class LapViewModel: Sendable {
                    @MainActor init(timer: LapTimer) {}
                }

                extension LapViewModel: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(LapViewModel.self, fileID: "TestModule/test.swift", line: 2, usingMainActor: LapViewModel.init(timer:))
                    }
                }
                """
        )
    }

    @Test func mainActorType() {
        expectExpansion(
            """
            @Injectable
            @MainActor
            final class Dashboard {
                init(car: RaceCar) {}
            }
            """,
            expands: """
                @MainActor
                final class Dashboard {
                    init(car: RaceCar) {}
                }

                extension Dashboard: Injectable {
                    nonisolated static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(Dashboard.self, fileID: "TestModule/test.swift", line: 3, usingMainActor: Dashboard.init(car:))
                    }
                }
                """
        )
    }

    @Test func namedParameterWithString() {
        expectExpansion(
            """
            @Injectable
            final class RaceCar: Sendable {
                init(@Named("v12") engine: any Engine, radio: Radio) {}
            }
            """,
            expands: """
                final class RaceCar: Sendable {
                    init(@Named("v12") engine: any Engine, radio: Radio) {}
                }

                extension RaceCar: Injectable {
                    enum _GraftName0: Graft.ServiceName {
                        static let name = "v12"
                    }

                    static func register(in builder: inout Graft.ContainerBuilder) {
                        @Sendable func make(_ p0: Graft.Named<any Engine, _GraftName0>, _ p1: Radio) -> RaceCar {
                            RaceCar(engine: p0.value, radio: p1)
                        }
                        builder.register(RaceCar.self, fileID: "TestModule/test.swift", line: 2, using: make)
                    }
                }
                """
        )
    }

    @Test func namedParameterWithServiceNameType() {
        expectExpansion(
            """
            @Injectable
            final class RaceCar: Sendable {
                init(@Named(V12.self) engine: any Engine) {}
            }
            """,
            expands: """
                final class RaceCar: Sendable {
                    init(@Named(V12.self) engine: any Engine) {}
                }

                extension RaceCar: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        @Sendable func make(_ p0: Graft.Named<any Engine, V12>) -> RaceCar {
                            RaceCar(engine: p0.value)
                        }
                        builder.register(RaceCar.self, fileID: "TestModule/test.swift", line: 2, using: make)
                    }
                }
                """
        )
    }

    @Test func namedParameterOfThrowingInitializer() {
        expectExpansion(
            """
            @Injectable
            final class RaceCar: Sendable {
                init(@Named("v12") _ engine: any Engine) throws {}
            }
            """,
            expands: """
                final class RaceCar: Sendable {
                    init(@Named("v12") _ engine: any Engine) throws {}
                }

                extension RaceCar: Injectable {
                    enum _GraftName0: Graft.ServiceName {
                        static let name = "v12"
                    }

                    static func register(in builder: inout Graft.ContainerBuilder) {
                        @Sendable func make(_ p0: Graft.Named<any Engine, _GraftName0>) throws -> RaceCar {
                            try RaceCar(p0.value)
                        }
                        builder.register(RaceCar.self, fileID: "TestModule/test.swift", line: 2, using: make)
                    }
                }
                """
        )
    }

    @Test func runtimeArgument() {
        expectExpansion(
            """
            @Injectable
            final class PitStop: Sendable {
                init(@Argument lap: Lap, crew: Crew) {}
            }
            """,
            expands: """
                final class PitStop: Sendable {
                    init(@Argument lap: Lap, crew: Crew) {}
                }

                extension PitStop: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        @Sendable func make(_ p0: Lap, _ p1: Crew) -> PitStop {
                            PitStop(lap: p0, crew: p1)
                        }
                        builder.register(PitStop.self, arguments: Lap.self, fileID: "TestModule/test.swift", line: 2, using: make)
                    }
                }
                """
        )
    }

    @Test func runtimeArgumentsAfterADependencyOfTheirType() {
        expectExpansion(
            """
            @Injectable
            final class PitStop: Sendable {
                init(previous: Lap, @Argument lap: Lap, @Argument tyres: Tyres) {}
            }
            """,
            expands: """
                final class PitStop: Sendable {
                    init(previous: Lap, @Argument lap: Lap, @Argument tyres: Tyres) {}
                }

                extension PitStop: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        @Sendable func make(_ p1: Lap, _ p2: Tyres, _ p0: Lap) -> PitStop {
                            PitStop(previous: p0, lap: p1, tyres: p2)
                        }
                        builder.register(PitStop.self, arguments: Lap.self, Tyres.self, fileID: "TestModule/test.swift", line: 2, using: make)
                    }
                }
                """
        )
    }

    @Test func injectionForms() {
        expectExpansion(
            """
            @Injectable
            final class Strategy: Sendable {
                init(
                    extinguisher: Lazy<Extinguisher>,
                    wheels: Provider<Wheel>,
                    pitStops: Factory<PitStop, Lap>,
                    engines: All<any Engine>,
                    enginesByName: ByName<any Engine>,
                    radio: Radio?
                ) {}
            }
            """,
            expands: """
                final class Strategy: Sendable {
                    init(
                        extinguisher: Lazy<Extinguisher>,
                        wheels: Provider<Wheel>,
                        pitStops: Factory<PitStop, Lap>,
                        engines: All<any Engine>,
                        enginesByName: ByName<any Engine>,
                        radio: Radio?
                    ) {}
                }

                extension Strategy: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(Strategy.self, fileID: "TestModule/test.swift", line: 2, using: Strategy.init(extinguisher:wheels:pitStops:engines:enginesByName:radio:))
                    }
                }
                """
        )
    }

    @Test func publicType() {
        expectExpansion(
            """
            @Injectable
            public final class RaceCar: Sendable {
                public init(engine: any Engine) {}
            }
            """,
            expands: """
                public final class RaceCar: Sendable {
                    public init(engine: any Engine) {}
                }

                extension RaceCar: Injectable {
                    public static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(RaceCar.self, fileID: "TestModule/test.swift", line: 2, using: RaceCar.init(engine:))
                    }
                }
                """
        )
    }

    @Test func packageStruct() {
        expectExpansion(
            """
            @Injectable
            package struct Radio {
                package init() {}
            }
            """,
            expands: """
                package struct Radio {
                    package init() {}
                }

                extension Radio: Injectable {
                    package static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(Radio.self, fileID: "TestModule/test.swift", line: 2, using: Radio.init)
                    }
                }
                """
        )
    }

    @Test func privateInitializerOfPrivateType() {
        expectExpansion(
            """
            @Injectable
            private final class Secret: Sendable {
                private init(key: Key) {}
            }
            """,
            expands: """
                private final class Secret: Sendable {
                    private init(key: Key) {}
                }

                extension Secret: Injectable {
                    static func register(in builder: inout Graft.ContainerBuilder) {
                        builder.register(Secret.self, fileID: "TestModule/test.swift", line: 2, using: Secret.init(key:))
                    }
                }
                """
        )
    }
}
