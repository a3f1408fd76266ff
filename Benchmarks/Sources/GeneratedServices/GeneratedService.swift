/// What every generated type of the registration benchmark (scenario 6) and of `graft-startup`
/// is: a service with a plain initializer. The types themselves are in `Generated/`, written by
/// `Scripts/generate-services.py`; they are empty structs because 30,000 classes take the
/// compiler minutes (the script says more).
///
/// The benchmarks register them through generic functions that open `any GeneratedService.Type`,
/// so each container sees a real static type per registration, as it would in an app, while
/// the compiler builds one registration function instead of 30,000 closures.
///
/// The types stay internal to this module: only the protocol and the list of them are public,
/// which is all a registration through an opened existential needs.
public protocol GeneratedService: Sendable {
    init()
}
