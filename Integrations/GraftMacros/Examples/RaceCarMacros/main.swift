import GraftMacros

protocol Engine: Sendable {}

@Injectable(.singleton, as: (any Engine).self)
final class V12Engine: Engine {
    init() {}
}

@Injectable
final class RaceCar: Sendable {
    let engine: any Engine
    init(@Named("v12") engine: any Engine, other: any Engine) { self.engine = engine }
}

var builder = ContainerBuilder()
builder.register(V12Engine.self, RaceCar.self)
builder.register((any Engine).self, name: "v12") { _ in V12Engine() }
let container = try builder.build()
print(try container.resolve(RaceCar.self))
