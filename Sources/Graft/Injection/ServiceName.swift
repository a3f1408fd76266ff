/// A registration's name spelled once, as a type: what both a named registration and the
/// ``Named`` parameter that asks for it refer to.
///
/// A string name typed twice, once where a module registers and once where a consumer asks,
/// can drift apart silently; a type cannot be misspelt without a compile error.
///
/// ```swift
/// enum Primary: ServiceName { static let name = "primary" }
///
/// builder.register(Database.self, name: Primary.name, lifetime: .singleton, using: Database.init)
/// builder.register(Ledger.self, using: Ledger.init(database:))
///
/// struct Ledger: Sendable {
///     init(database: Named<Database, Primary>) { self.database = database.value }
///     let database: Database
/// }
/// ```
public protocol ServiceName: Sendable {
    /// The name the registration is made under.
    static var name: String { get }
}
