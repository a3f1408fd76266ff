import GraftMacros
import Testing

/// A container built from `@Injectable` types against the same container registered by hand.
@Suite struct InjectableRuntimeTests {
    let log = DisposalLog()

    func macroBuilder() -> ContainerBuilder {
        var builder = ContainerBuilder()
        builder.register(DisposalLog.self, instance: log)
        builder.register((any Engine).self, name: "v12", lifetime: .singleton) { _ in MacroEngine() }
        builder.register(MacroEngine.self, MacroCar.self, MacroPitWall.self, MacroPitStop.self, Radio.self)
        builder.register(MacroStrategy.self, MacroTelemetry.self)
        return builder
    }

    func handBuilder() -> ContainerBuilder {
        var builder = ContainerBuilder()
        builder.register(DisposalLog.self, instance: log)
        builder.register((any Engine).self, name: "v12", lifetime: .singleton) { _ in HandEngine() }
        builder.register(HandEngine.self, lifetime: .singleton, using: HandEngine.init)
        builder.alias((any Engine).self, to: HandEngine.self)
        builder.alias((any Diagnosable).self, to: HandEngine.self)
        builder.register(HandCar.self, using: HandCar.init(engine:spare:radio:))
        builder.register(HandPitWall.self, lifetime: .scoped, using: HandPitWall.init(log:))
        builder.register(HandPitStop.self, arguments: Int.self, using: HandPitStop.init(lap:car:))
        builder.register(Radio.self, using: Radio.init(log:))
        return builder
    }

    @Test func registersWhatTheHandWrittenFormRegisters() {
        // The hand-written builder lacks MacroStrategy and MacroTelemetry: 2 registrations.
        #expect(macroBuilder().count == handBuilder().count + 2)
    }

    @Test func resolvesLikeTheHandWrittenForm() throws {
        let macro = try macroBuilder().build()
        let hand = try handBuilder().build()

        let macroCar = try macro.resolve(MacroCar.self)
        let handCar = try hand.resolve(HandCar.self)
        #expect(macroCar.engine is MacroEngine && handCar.engine is HandEngine)
        #expect(macroCar.engine as AnyObject === macroCar.spare as AnyObject)
        #expect(handCar.engine as AnyObject === handCar.spare as AnyObject)
        #expect(try macro.resolve(MacroCar.self) !== macroCar)

        // The aliases answer with the one singleton.
        let engine = try macro.resolve(MacroEngine.self)
        #expect(try macro.resolve((any Engine).self) as AnyObject === engine)
        #expect(try macro.resolve((any Diagnosable).self) as AnyObject === engine)
        #expect(try hand.resolve((any Diagnosable).self) as AnyObject === hand.resolve(HandEngine.self))
    }

    @Test func passesRuntimeArguments() throws {
        let container = try macroBuilder().build()
        #expect(try container.resolve(MacroPitStop.self, arguments: 18).lap == 18)
        let strategy = try container.resolve(MacroStrategy.self)
        #expect(try strategy.pitStops.make(19).lap == 19)
        #expect(try strategy.cars.get() !== strategy.cars.get())
        #expect(strategy.engines.count == 2)
    }

    @Test func resolvesAnAsyncThrowingInitializer() async throws {
        let container = try await macroBuilder().build()
        let telemetry = try await container.resolve(MacroTelemetry.self)
        #expect(try await container.resolve(MacroTelemetry.self) === telemetry)
    }

    @Test func disposesLikeTheHandWrittenForm() throws {
        let macro = try macroBuilder().build()
        let hand = try handBuilder().build()
        try macro.withScope { scope in _ = try scope.resolve(MacroPitWall.self) }
        try hand.withScope { scope in _ = try scope.resolve(HandPitWall.self) }
        #expect(log.disposed == ["MacroPitWall", "HandPitWall"])
    }

    @Test func buildReportsAMissingNameAtTheTypesLine() throws {
        var builder = macroBuilder()
        builder.register(MacroMissingName.self)
        let error = #expect(throws: GraftError.self) { try builder.build() }
        let message = try #require(error).description
        #expect(message.contains("MacroMissingName"))
        #expect(message.contains("v8"))
        // The type's declaration, in Fixtures.swift, not this call.
        #expect(message.contains("GraftMacrosTests/Fixtures.swift:64"))
    }
}
