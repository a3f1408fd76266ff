/// One key that a ``KeyValueInjectable`` type accepts: its name, the writable key path its
/// value goes to, and whether it is required.
///
/// Make keys with ``required(_:_:)``, ``optional(_:_:)`` and ``nested(_:_:required:)``, and
/// list them in ``KeyValueInjectable/injectableKeys``:
///
/// ```swift
/// static let injectableKeys: InjectableKeys<Settings> = [
///     .required("title", \.title),
///     .optional("retries", \.retries),
///     .optional("view.cornerRadius", \.view.cornerRadius),  // a dotted name and key path
///     .nested("database", \.database),                      // "database.host", …
/// ]
/// ```
public struct InjectableKey<Root>: Sendable {
    let slots: [KeySlot<Root>]
    let groups: [KeyGroup]

    /// A key the values must contain.
    ///
    /// ```swift
    /// .required("title", \.title)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The key's name in the values; it may contain dots (`"view.cornerRadius"`).
    ///   - keyPath: Where the value goes. Any type works; numbers convert to it when exact,
    ///     and an enum with raw values also accepts a raw value.
    /// - Returns: The key, for ``InjectableKeys``.
    public static func required<Value>(
        _ name: String,
        _ keyPath: any WritableKeyPath<Root, Value> & Sendable
    ) -> Self {
        Self(slots: [KeySlot(name: name, isRequired: true, keyPath: keyPath)], groups: [])
    }

    /// A key the values may leave out; the property then keeps its current value.
    ///
    /// ```swift
    /// .optional("retries", \.retries)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The key's name in the values; it may contain dots (`"view.cornerRadius"`).
    ///   - keyPath: Where the value goes. Any type works; for an `Optional` property, a
    ///     `nil` value (or JSON `null`) sets it to `nil`.
    /// - Returns: The key, for ``InjectableKeys``.
    public static func optional<Value>(
        _ name: String,
        _ keyPath: any WritableKeyPath<Root, Value> & Sendable
    ) -> Self {
        Self(slots: [KeySlot(name: name, isRequired: false, keyPath: keyPath)], groups: [])
    }

    /// A child value whose own keys are reached as `"name.key"`.
    ///
    /// ```swift
    /// .nested("view", \.view)   // accepts "view.backgroundColor" and ["view": ["backgroundColor": …]]
    /// ```
    ///
    /// - Parameters:
    ///   - name: The prefix of the child's keys.
    ///   - keyPath: Where the child lives; it is changed in place.
    ///   - required: When `true`, the child's required keys are required whenever the parent
    ///     is injected; when `false`, only once any key under `name` is given.
    /// - Returns: The key, for ``InjectableKeys``.
    public static func nested<Child: KeyValueInjectable>(
        _ name: String,
        _ keyPath: any WritableKeyPath<Root, Child> & Sendable,
        required: Bool = true
    ) -> Self {
        nested(name, keyPath, keys: Child.injectableKeys, required: required)
    }

    /// A child value whose keys are declared here, for a type that is not
    /// ``KeyValueInjectable`` itself (a framework's view, say).
    ///
    /// ```swift
    /// .nested("view", \.view, keys: [.optional("backgroundColor", \View.backgroundColor)])
    /// ```
    ///
    /// - Parameters:
    ///   - name: The prefix of the child's keys.
    ///   - keyPath: Where the child lives; it is changed in place.
    ///   - keys: The child's keys.
    ///   - required: When `true`, the child's required keys are required whenever the parent
    ///     is injected; when `false`, only once any key under `name` is given.
    /// - Returns: The key, for ``InjectableKeys``.
    public static func nested<Child>(
        _ name: String,
        _ keyPath: any WritableKeyPath<Root, Child> & Sendable,
        keys: InjectableKeys<Child>,
        required: Bool = true
    ) -> Self {
        let slots = keys.slots.map { $0.lifted(into: name, through: keyPath, groupIsRequired: required) }
        let groups =
            [KeyGroup(name: name, childType: KeyValueInjection.typeName(Child.self))]
            + keys.groups.map { $0.lifted(into: name) }
        return Self(slots: slots, groups: groups)
    }
}

/// A change to make to a root value once every key has been checked.
struct KeyAssignment<Root> {
    let apply: (inout Root) -> Void
}

/// A declared leaf key, with its full dotted name.
struct KeySlot<Root>: Sendable {
    let name: String
    let isRequired: Bool
    /// The full names of the optional groups around this key, outermost first.
    let optionalGroups: [String]
    /// The declared type, as messages show it.
    let valueType: String
    /// The declared type itself, for code that supplies values (``InjectableKeys/valueType(forKey:)``).
    let declaredType: any Any.Type
    /// Converts a value to the declared type and returns how to set it, or why it can't.
    let prepare: @Sendable (any Sendable) -> Result<KeyAssignment<Root>, ConversionFailure>

    init<Value>(name: String, isRequired: Bool, keyPath: any WritableKeyPath<Root, Value> & Sendable) {
        self.name = name
        self.isRequired = isRequired
        self.optionalGroups = []
        self.valueType = KeyValueInjection.typeName(Value.self)
        self.declaredType = Value.self
        self.prepare = { value in
            guard let converted = KeyValueInjection.convert(value, to: Value.self) else {
                return .failure(ConversionFailure(value: value, expected: Value.self))
            }
            return .success(KeyAssignment { root in root[keyPath: keyPath] = converted })
        }
    }

    private init(
        name: String,
        isRequired: Bool,
        optionalGroups: [String],
        valueType: String,
        declaredType: any Any.Type,
        prepare: @escaping @Sendable (any Sendable) -> Result<KeyAssignment<Root>, ConversionFailure>
    ) {
        self.name = name
        self.isRequired = isRequired
        self.optionalGroups = optionalGroups
        self.valueType = valueType
        self.declaredType = declaredType
        self.prepare = prepare
    }

    /// This key as seen from a parent that holds its root at `keyPath` under `prefix`.
    func lifted<Parent>(
        into prefix: String,
        through keyPath: any WritableKeyPath<Parent, Root> & Sendable,
        groupIsRequired: Bool
    ) -> KeySlot<Parent> {
        let prepare = self.prepare
        return KeySlot<Parent>(
            name: "\(prefix).\(name)",
            isRequired: isRequired,
            optionalGroups: (groupIsRequired ? [] : [prefix]) + optionalGroups.map { "\(prefix).\($0)" },
            valueType: valueType,
            declaredType: declaredType,
            prepare: { value in
                prepare(value).map { assignment in
                    KeyAssignment { parent in assignment.apply(&parent[keyPath: keyPath]) }
                }
            }
        )
    }
}

/// A declared child value whose keys are reached through a dotted prefix.
struct KeyGroup: Sendable {
    let name: String
    let childType: String

    func lifted(into prefix: String) -> KeyGroup {
        KeyGroup(name: "\(prefix).\(name)", childType: childType)
    }
}
