import GraftMacros

// Describe: the types list themselves; the two values that are no type's own declaration (the
// radio frequency, the named spare engine) are registered by hand beside them.
var builder = ContainerBuilder()
builder.register(RadioFrequency.self, instance: RadioFrequency(megahertz: 433))
builder.register((any Engine).self, name: "v12", lifetime: .singleton) { _ in V12Engine() }
builder.register(
    RCEngine.self,
    Transmission.self,
    Wheel.self,
    FireExtinguisher.self,
    PitRadio.self,
    RaceCar.self,
    PitStop.self,
    RaceStrategy.self
)

// Build: the whole graph is checked before any object exists.
let container = builder.buildOrExit()

let car = try container.resolve(RaceCar.self)
print("Built a race car from @Injectable types:")
print("  engine:       \(car.engine.name) (.singleton, also answers as Diagnosable)")
print("  spare engine: \(car.spareEngine.name) (@Named(\"v12\"))")
print("  transmission: \(car.transmission.gears) gears (.singleton)")
print(
    "  wheels:       \(Set(car.wheels.map(ObjectIdentifier.init)).count) distinct (.transient, from a Provider<Wheel>)"
)
print("  extinguisher: created yet? \(car.extinguisher.isCreated) (Lazy<FireExtinguisher>)")
print("  \(try car.extinguisher.value.spray())")
print("Diagnostics: \(try container.resolve((any Diagnosable).self).diagnose())")
let stop = try container.resolve(RaceStrategy.self).boxBox(on: Lap(number: 18))
print("Box, box on lap \(stop.lap.number): the same car? \(stop.car === car)")
try container.shutdown()
