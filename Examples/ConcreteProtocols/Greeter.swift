/// The seed's `ObjectProtocol`: what EXTConcreteProtocol gave every conforming class.
///
/// In Objective-C the default methods had to be copied into each conforming class at run time,
/// before `main`, after walking every class in the program. In Swift the protocol extension is
/// the default: the compiler writes it into each conforming type's witness table, so there is
/// nothing to find, copy or register when the program starts.
protocol Greeter {
    static func sayHello() -> String
    var age: Int { get }
    init()
}

extension Greeter {
    static func sayHello() -> String { "Hello from \(Self.self)" }
    var age: Int { 18 }
}
