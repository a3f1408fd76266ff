/// The keys a type accepts for keyed-value injection, and the injection itself.
///
/// A ``KeyValueInjectable`` type returns these from ``KeyValueInjectable/injectableKeys``;
/// they also work on their own, for a type that can't conform (a non-final class, a type from
/// another module):
///
/// ```swift
/// let keys: InjectableKeys<Settings> = [.required("title", \.title), .optional("retries", \.retries)]
/// var settings = Settings()
/// try keys.inject(["title": "Test", "retries": 3], into: &settings)
/// ```
///
/// Injection checks every value before it sets any: a missing required key, an unknown key
/// and a value of the wrong type are each a problem, and all problems arrive together in one
/// ``GraftError``:
///
/// ```
/// Graft: cannot inject Settings: 2 problems
///   1. Settings is missing required key "title" (String)
///      add "title" to the injected values
///   2. Settings has no injectable key "retires"
///      did you mean "retries"?
/// ```
public struct InjectableKeys<Root>: Sendable, ExpressibleByArrayLiteral {
    let slots: [KeySlot<Root>]
    let groups: [KeyGroup]
    let slotsByName: [String: Int]
    let groupsByName: [String: Int]
    /// Names declared more than once, in declaration order.
    let duplicateNames: [String]
    /// Every proper dotted prefix of a declared name (`"view"` for `"view.backgroundColor"`):
    /// a dictionary given for one of these is unfolded into nested keys.
    let nestedPrefixes: Set<String>

    /// Collects `keys`.
    ///
    /// ```swift
    /// let keys = InjectableKeys<Settings>([.required("title", \.title)])
    /// ```
    ///
    /// - Parameter keys: The keys; each name must be declared once.
    public init(_ keys: [InjectableKey<Root>]) {
        let slots = keys.flatMap(\.slots)
        let groups = keys.flatMap(\.groups)
        var slotsByName: [String: Int] = [:]
        var groupsByName: [String: Int] = [:]
        var seen: Set<String> = []
        var duplicateNames: [String] = []
        for (index, slot) in slots.enumerated() {
            if seen.insert(slot.name).inserted {
                slotsByName[slot.name] = index
            } else {
                duplicateNames.append(slot.name)
            }
        }
        for (index, group) in groups.enumerated() {
            if seen.insert(group.name).inserted {
                groupsByName[group.name] = index
            } else {
                duplicateNames.append(group.name)
            }
        }
        self.slots = slots
        self.groups = groups
        self.slotsByName = slotsByName
        self.groupsByName = groupsByName
        self.duplicateNames = duplicateNames
        var nestedPrefixes: Set<String> = []
        for name in slots.map(\.name) + groups.map(\.name) {
            var components = name.split(separator: ".", omittingEmptySubsequences: false).dropLast()
            while !components.isEmpty {
                nestedPrefixes.insert(components.joined(separator: "."))
                components = components.dropLast()
            }
        }
        self.nestedPrefixes = nestedPrefixes
    }

    /// Collects the keys of an array literal.
    ///
    /// ```swift
    /// let keys: InjectableKeys<Settings> = [.required("title", \.title), .optional("retries", \.retries)]
    /// ```
    ///
    /// - Parameter keys: The keys; each name must be declared once.
    public init(arrayLiteral keys: InjectableKey<Root>...) {
        self.init(keys)
    }

    /// Every key a value may set, nested keys with their full dotted names, in declaration order.
    ///
    /// ```swift
    /// Settings.injectableKeys.names  // ["title", "retries", "view.backgroundColor"]
    /// ```
    public var names: [String] {
        slots.map(\.name)
    }

    /// The keys every injection must contain, in declaration order.
    ///
    /// Keys inside an optional nested group (`nested(_:_:required: false)`) are not listed:
    /// they are required only once a key of their group is given.
    ///
    /// ```swift
    /// Settings.injectableKeys.requiredNames  // ["title"]
    /// ```
    public var requiredNames: [String] {
        slots.filter { $0.isRequired && $0.optionalGroups.isEmpty }.map(\.name)
    }

    /// Checks `values` against these keys without setting anything.
    ///
    /// A container can call this while it is being built, long before any instance exists.
    ///
    /// ```swift
    /// try Settings.injectableKeys.validate(["title": "Test"])
    /// ```
    ///
    /// - Parameter values: Values by key, as for `inject(_:into:)`.
    /// - Throws: The ``GraftError`` that injecting `values` would throw.
    public func validate(_ values: [String: any Sendable]) throws(GraftError) {
        _ = try plan(values)
    }

    /// Sets `values` on `root` by key, or sets nothing and throws.
    ///
    /// ```swift
    /// var settings = Settings()
    /// try Settings.injectableKeys.inject(["title": "Test", "view.backgroundColor": Color.white], into: &settings)
    /// ```
    ///
    /// - Parameters:
    ///   - values: Values by key; a dotted key (`"view.backgroundColor"`) or a nested
    ///     dictionary (`["view": ["backgroundColor": …]]`, written
    ///     `as [String: any Sendable]` when its values have mixed types) reaches a nested key.
    ///   - root: The value to change.
    /// - Throws: ``GraftError`` whose ``GraftError/problems`` each have the code
    ///   ``GraftError/Code/missingKey``, ``GraftError/Code/unknownKey`` or
    ///   ``GraftError/Code/typeMismatch``; its own code is that of the first problem.
    public func inject(_ values: [String: any Sendable], into root: inout Root) throws(GraftError) {
        for assignment in try plan(values) {
            assignment.apply(&root)
        }
    }

    /// Sets `values` on `object` by key, or sets nothing and throws.
    ///
    /// ```swift
    /// let controller = ViewController()
    /// try ViewController.injectableKeys.inject(["title": "Test"], into: controller)
    /// ```
    ///
    /// - Parameters:
    ///   - values: Values by key, as for the `inout` variant.
    ///   - object: The object to change.
    /// - Throws: ``GraftError`` listing every problem in ``GraftError/problems``.
    public func inject(_ values: [String: any Sendable], into object: Root) throws(GraftError) where Root: AnyObject {
        var object = object
        try inject(values, into: &object)
    }
}
