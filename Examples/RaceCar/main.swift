import Foundation
import Graft

// Describe: registrations only; nothing is created yet.
var builder = ContainerBuilder()
builder.register(RadioFrequency.self, instance: RadioFrequency(megahertz: 433))
builder.install(PitCrewModule())

// `race-car --graph dot` (or `mermaid`) prints the graph instead of driving.
let arguments = CommandLine.arguments
if let flag = arguments.firstIndex(of: "--graph"), flag + 1 < arguments.count {
    guard let format = GraphFormat(rawValue: arguments[flag + 1]) else {
        print("usage: race-car [--graph dot|mermaid] [--startup-report]")
        exit(2)
    }
    print(builder.exportGraph(as: format), terminator: "")
    exit(0)
}

// `race-car --startup-report` builds, makes the car, then prints where the time went (slowest
// first) and the graph labelled with it, instead of driving.
if arguments.contains("--startup-report") {
    let recorder = StartupRecorder()
    builder.addObserver(recorder)
    let container = builder.buildOrExit()
    _ = try container.resolve(RaceCar.self)
    print(recorder.report())
    print(container.exportGraph(as: .dot, labelledWith: recorder.report()), terminator: "")
    exit(0)
}

// Build: the whole graph is checked before any object exists. A graph that cannot be built ends
// the program with its message on standard error and exit status 1.
let container = builder.buildOrExit()

// Resolve.
let car = try container.resolve(RaceCar.self)
print("Built a race car:")
print("  engine:       \(car.engine.name) (.singleton, also answers as Diagnosable)")
print("  transmission: \(car.transmission.gears) gears (.singleton)")
print(
    "  wheels:       \(Set(car.wheels.map(ObjectIdentifier.init)).count) distinct (.transient, from a Provider<Wheel>)"
)
let spare = try car.spareWheels.get()
print("  spare wheel:  a fifth one, made later by the same provider: \(!car.wheels.contains { $0 === spare })")
print("  radio:        \(car.radio.frequency.megahertz) MHz (instance: registration, passed in)")
print("  extinguisher: created yet? \(car.extinguisher.isCreated) (Lazy<FireExtinguisher>)")
print("Fire on lap 3!")
print("  \(try car.extinguisher.value.spray())")

let diagnosable = try container.resolve((any Diagnosable).self)
print("Diagnostics: \(diagnosable.diagnose())")
let v12 = try container.resolve((any Engine).self, name: "v12")
print("Spare engine on the truck: \(v12.name) (named \"v12\")")

// Property injection: the track gets its car after construction.
let track = try container.resolve(RaceTrack.self)
print("On track at \(track.name): the same car? \(track.car === car)")

// @Injected: an object made by someone else, bound to the container afterwards.
let timer = LapTimer()
container.injectProperties(into: timer)
print("Timer: \(timer.announce(lap: 7))")

// Keyed values: configured by the module, or from JSON like a settings file.
let livery = try container.resolve(Livery.self)
print("Livery: #\(livery.number) in \(livery.colour) with \(livery.stripes.count) stripes")
let fromFile = try Livery(injectingJSON: #"{"colour": "silver", "number": 44, "stripes": {"count": 1}}"#.utf8)
print("Livery from JSON: #\(fromFile.number) in \(fromFile.colour)")
do {
    _ = try Livery(injecting: ["colour": "blue", "numbr": 7])
} catch {
    print("A livery with a typo is refused, all problems at once:")
    print(error.description.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
}

// Scoped: one pit-stop order per stop; the scope closes when the body ends.
for lap in [12, 31] {
    try container.withScope { scope in
        let order = try scope.resolve(PitStopOrder.self)
        let again = try scope.resolve(PitStopOrder.self)
        print("Pit stop on lap \(lap): one order for the whole stop? \(order === again)")
    }
}

// Runtime arguments: the strategy makes a pit stop for a lap it picks during the race.
let strategy = try container.resolve(RaceStrategy.self)
for lap in [Lap(number: 18), Lap(number: 41)] {
    let stop = try strategy.boxBox(on: lap)
    print("Box, box on \(stop.lap): same car? \(stop.car === car), radio on \(stop.radio.frequency.megahertz) MHz")
}

// Mistakes are found at build time, all at once.
var broken = ContainerBuilder()
broken.install(PitCrewModule())
do {
    _ = try broken.build()
} catch {
    print("A builder without the radio frequency does not build:")
    print(error.description.split(separator: "\n").map { "  \($0)" }.joined(separator: "\n"))
}

print("Shutting down:")
try container.shutdown()
