#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// concrete-protocols [extension|scan|none]: the seeds' EXTConcreteProtocol, in Swift.
//
// - extension (the default): calls the default methods that `Greeter`'s protocol extension
//   gives every one of the generated types. There is no start-up step: the work shown is what
//   the program does, and the process costs what `none` costs.
// - scan: what a runtime-injection library does before `main`: list every type of the program
//   and ask the runtime, for each, whether it conforms (`as? any Greeter.Type`, a conformance
//   lookup like `class_conformsToProtocol`), keeping the ones that do.
// - none: starts and exits, for a baseline.
//
// Each mode prints one line of JSON with the time its step took, measured inside the process;
// Scripts/measure.py runs each mode as a fresh process and under callgrind.

let mode = CommandLine.arguments.dropFirst().first ?? "extension"
let clock = ContinuousClock()
let start = clock.now
var result = ""
switch mode {
case "extension":
    result = "\(firstRacer.sayHello()), age \(lastRacer.init().age)"
case "scan":
    var everyType: [Any.Type] = []
    everyType.reserveCapacity(generatedTypeCount)
    appendEveryType(to: &everyType)
    var greeters: [any Greeter.Type] = []
    for type in everyType {
        if let greeter = type as? any Greeter.Type { greeters.append(greeter) }
    }
    result = "\(greeters.count) of \(everyType.count) types conform"
case "none":
    result = "nothing"
default:
    var message = "usage: concrete-protocols [extension|scan|none]\n"
    message.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    exit(2)
}
let elapsed = clock.now - start
let microseconds = Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6
print(
    "{\"mode\": \"\(mode)\", \"types\": \(generatedTypeCount), \"stepMicroseconds\": \(microseconds), \"result\": \"\(result)\"}"
)
